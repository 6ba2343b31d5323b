"""Whole tables: dump and load every row (python -m bot migrate, backup checks), count
rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.base import TABLES, Driver, StoreError, Tx


class AdminSQL(Driver):
    """Every row of the tables, dumped or loaded in one transaction."""

    async def columns(self, table: str) -> list[str]:
        raise NotImplementedError

    async def dump_tables(self, tables: Sequence[str] = TABLES
                          ) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
        """Every row of the tables, read in one transaction (a consistent copy of a live
        database): table -> (column names, rows)."""
        for t in tables:
            if t not in TABLES:
                raise ValueError(f"unknown table {t!r}")
        out = {}
        names = {t: await self.columns(t) for t in tables}
        async with self.transaction() as tx:
            for t in tables:
                cols = names[t]
                rows = await tx.fetchall(
                    f"SELECT {', '.join(cols)} FROM {t} ORDER BY {', '.join(cols[:2])}")
                out[t] = (cols, [tuple(r) for r in rows])
        return out

    async def load_tables(self, data: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        """Insert dumped rows into empty tables, in one transaction."""
        names = {t: await self.columns(t) for t in TABLES if t in data}
        async with self.transaction() as tx:
            for t in TABLES:
                if t not in data:
                    continue
                cols, rows = data[t]
                here = names[t]
                if set(cols) != set(here):
                    raise StoreError(f"table {t} has columns {here}, the copy has {cols}")
                marks = ", ".join("?" for _ in cols)
                sql = f"INSERT INTO {t} ({', '.join(cols)}) VALUES ({marks})"
                for r in rows:
                    await tx.execute(sql, *r)
            await self._after_load(tx)

    async def _after_load(self, tx: Tx) -> None:
        """Dialect hook after a bulk load (PostgreSQL moves its id sequences on)."""

    async def count_rows(self, table: str) -> int:
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}")
        row = await self.fetchone(f"SELECT COUNT(*) FROM {table}")
        return int(row[0])


