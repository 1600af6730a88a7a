"""Shared helpers for the compat scripts: connection settings from the PG* env vars set by the vitest
wrapper (COMPAT_SCHEMA names the fixture schema), and a tiny check() that prints each passed step."""
import os
import sys

SCHEMA = os.environ.get("COMPAT_SCHEMA", "public")
HOST = os.environ.get("PGHOST", "127.0.0.1")
PORT = int(os.environ.get("PGPORT", "5432"))
USER = os.environ.get("PGUSER", "postgres")
DBNAME = os.environ.get("PGDATABASE", "postgres")


def dsn() -> str:
    return f"host={HOST} port={PORT} user={USER} dbname={DBNAME}"


def url(driver: str) -> str:
    return f"postgresql+{driver}://{USER}@{HOST}:{PORT}/{DBNAME}"


def check(name: str, actual, expected) -> None:
    if actual != expected:
        print(f"FAIL {name}: expected {expected!r}, got {actual!r}", flush=True)
        sys.exit(1)
    print(f"ok {name}", flush=True)
