// JSON over HTTP to the page's own server (same origin: the Activity's proxy maps it).

import type { ErrorBody } from './protocol';

export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, text: string) {
    super(text);
  }
}

export async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  if (!res.ok) {
    let code = 'http';
    let text = `${res.status}`;
    try {
      const body = (await res.json()) as ErrorBody;
      code = body.error?.code ?? code;
      text = body.error?.text ?? text;
    } catch {
      // not JSON: keep the status
    }
    throw new HttpError(res.status, code, text);
  }
  return (await res.json()) as T;
}

export function post<T>(path: string, body: unknown): Promise<T> {
  return json<T>(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
}
