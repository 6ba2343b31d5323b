// The turn's time left, as text (pure).

import type { Words } from './i18n';

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** "4:05", "1:04:05", or in days and hours beyond a day; null when nothing is left. */
export function timeLeft(seconds: number, w: Words): string | null {
  if (!(seconds > 0)) return null;
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (d > 0) return w.t('web.time.days', { d, h: hh });
  if (hh > 0) return `${hh}:${two(mm)}:${two(ss)}`;
  return `${mm}:${two(ss)}`;
}
