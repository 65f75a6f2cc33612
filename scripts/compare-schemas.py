#!/usr/bin/env python3
"""Compares the schema of a migrated SQLite database with a migrated PostgreSQL one.

    scripts/compare-schemas.py SQLITE_FILE POSTGRES_URL [--boolean TABLE.COLUMN ...]

Both databases should have had every migration applied (migrations/sqlite and
migrations/postgres, which are kept in step: see migrations/README.md). Compared,
table by table (sqlx's `_sqlx_migrations` and SQLite's `sqlite_*` left out):

- the tables;
- the ordered columns: name, nullability, rough type class (integer, boolean,
  text, float, blob), whether it is the generated id (SQLite's INTEGER PRIMARY
  KEY, PostgreSQL's identity column) and the default value, roughly;
- the primary key and the UNIQUE constraints (column lists);
- the indexes made by CREATE INDEX, by name, with uniqueness and columns
  (an expression counts as `<expr>`); left out: indexes named `*_trgm`
  (PostgreSQL's trigram search indexes), PostgreSQL's primary-key and
  unique-constraint indexes and SQLite's autoindexes;
- the foreign keys: columns -> referenced table and columns, ON DELETE;
- the number of CHECK constraints.

SQLite has no boolean type: its 0/1 flag columns are INTEGER, and PostgreSQL
declares them BOOLEAN. The known flags are listed in BOOLEAN_COLUMNS below;
`--boolean TABLE.COLUMN` adds one. A SQLite column so listed must be INTEGER and
counts as boolean.

Prints what it compared and every difference; exits 0 when there is none, 1
when there is one, 2 on a usage or connection error. Standard library only;
PostgreSQL is queried with `psql` (on PATH).
"""

import argparse
import json
import re
import sqlite3
import subprocess
import sys

# Columns that are 0/1 flags in SQLite and BOOLEAN in PostgreSQL.
BOOLEAN_COLUMNS = {
    "cases.seed",
    "datasets.synthetic",
    "users.adjudicator",
}

IGNORED_TABLES = {"_sqlx_migrations"}


def sqlite_type_class(declared, boolean):
    """SQLite's affinity rules (datatype3.html §3.1), plus the flag columns."""
    t = (declared or "").upper()
    if "BOOL" in t:
        return "boolean"
    if "INT" in t:
        return "boolean" if boolean else "integer"
    if "CHAR" in t or "CLOB" in t or "TEXT" in t:
        return "text"
    if "BLOB" in t or t == "":
        return "blob"
    if "REAL" in t or "FLOA" in t or "DOUB" in t:
        return "float"
    return "numeric"


def pg_type_class(data_type):
    return {
        "smallint": "integer",
        "integer": "integer",
        "bigint": "integer",
        "boolean": "boolean",
        "text": "text",
        "character varying": "text",
        "character": "text",
        "real": "float",
        "double precision": "float",
        "numeric": "numeric",
        "bytea": "blob",
    }.get(data_type, data_type)


def norm_default(value, type_class):
    """A column default in a form both databases agree on."""
    if value is None:
        return None
    v = value.strip()
    # PostgreSQL: 'x'::text, (0)::bigint
    v = re.sub(r"::[a-z ]+(\[\])?$", "", v)
    while v.startswith("(") and v.endswith(")"):
        v = v[1:-1].strip()
    if type_class == "boolean":
        v = {"0": "false", "1": "true", "FALSE": "false", "TRUE": "true"}.get(v, v.lower())
    return v


def strip_sql_noise(sql):
    """SQL without comments and string literals (for counting keywords)."""
    sql = re.sub(r"'(?:[^']|'')*'", "''", sql)
    sql = re.sub(r"--[^\n]*", "", sql)
    return re.sub(r"/\*.*?\*/", "", sql, flags=re.S)


class Schema:
    def __init__(self):
        # table -> list of (name, nullable, class, generated_id, default)
        self.columns = {}
        self.primary_keys = {}  # table -> tuple of columns
        self.uniques = {}  # table -> sorted list of column tuples
        self.indexes = {}  # name -> (table, unique, columns)
        self.foreign_keys = {}  # table -> sorted list of (cols, ref table, ref cols, on delete)
        self.checks = {}  # table -> number of CHECK constraints
        self.notes = []


def read_sqlite(path, booleans):
    s = Schema()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ).fetchall()
    seen_booleans = set()
    for table, sql in tables:
        if table in IGNORED_TABLES:
            continue
        info = db.execute(
            'SELECT cid, name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
            (table,),
        ).fetchall()
        pk_cols = sorted((pk, name) for _, name, _, _, _, pk in info if pk > 0)
        s.primary_keys[table] = tuple(name for _, name in pk_cols)
        without_rowid = re.search(r"\)\s*WITHOUT\s+ROWID\s*$", strip_sql_noise(sql), re.I)
        cols = []
        for _, name, declared, notnull, default, pk in info:
            key = f"{table}.{name}"
            boolean = key in booleans
            if boolean:
                seen_booleans.add(key)
            cls = sqlite_type_class(declared, boolean)
            if boolean and "INT" not in (declared or "").upper():
                s.notes.append(f"DIFF {key}: listed as a flag but declared {declared!r} in SQLite")
            rowid_alias = (
                len(pk_cols) == 1 and pk > 0 and (declared or "").upper() == "INTEGER" and not without_rowid
            )
            if pk > 0 and not notnull and not rowid_alias:
                # SQLite's legacy quirk: a non-INTEGER PRIMARY KEY column takes
                # NULL unless declared NOT NULL; PostgreSQL's never does.
                s.notes.append(
                    f"note {key}: PRIMARY KEY without NOT NULL accepts NULL in SQLite, not in PostgreSQL"
                )
            nullable = not notnull and pk == 0
            cols.append((name, nullable, cls, rowid_alias, norm_default(default, cls)))
        s.columns[table] = cols

        uniques = []
        for _, iname, unique, origin, partial in db.execute(
            "SELECT seq, name, \"unique\", origin, partial FROM pragma_index_list(?)", (table,)
        ).fetchall():
            xinfo = db.execute(
                "SELECT cid, name FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", (iname,)
            ).fetchall()
            cols_of = tuple("<expr>" if cid == -2 else name for cid, name in xinfo)
            if origin == "u":
                uniques.append(cols_of)
            elif origin == "pk":
                pass  # the primary key, from pragma_table_info
            else:
                if iname.endswith("_trgm"):
                    continue
                s.indexes[iname] = (table, bool(unique), cols_of) + (("partial",) if partial else ())
        s.uniques[table] = sorted(uniques)

        fks = {}
        for fid, seq, ref, frm, to, _upd, on_delete, _match in db.execute(
            "SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq", (table,)
        ).fetchall():
            fks.setdefault(fid, []).append((seq, frm, ref, to, on_delete))
        fk_list = []
        for parts in fks.values():
            parts.sort()
            ref = parts[0][2]
            to_cols = tuple(p[3] for p in parts)
            if any(t is None for t in to_cols):  # REFERENCES t without columns: its primary key
                to_cols = tuple(
                    name
                    for _, name in sorted(
                        (pk, name)
                        for _, name, _, _, _, pk in db.execute(
                            'SELECT cid, name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)', (ref,)
                        )
                        if pk > 0
                    )
                )
            fk_list.append((tuple(p[1] for p in parts), ref, to_cols, parts[0][4].upper()))
        s.foreign_keys[table] = sorted(fk_list)
        s.checks[table] = len(re.findall(r"\bCHECK\b", strip_sql_noise(sql), re.I))

    for key in sorted(booleans - seen_booleans):
        s.notes.append(f"DIFF {key}: listed as a flag but there is no such SQLite column")
    db.close()
    return s


def psql_json(url, query):
    """The rows of `query` (which must select one json value) as Python data."""
    try:
        out = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", query],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except FileNotFoundError:
        sys.exit("compare-schemas: psql is not on PATH")
    except subprocess.CalledProcessError as e:
        print(e.stderr, file=sys.stderr)
        sys.exit(2)
    return json.loads(out)


PG_COLUMNS = """
SELECT coalesce(json_agg(c ORDER BY table_name, ordinal_position), '[]')
FROM (SELECT table_name, column_name, ordinal_position, is_nullable, data_type, is_identity,
             column_default
      FROM information_schema.columns
      WHERE table_schema = 'public'
        AND table_name IN (SELECT table_name FROM information_schema.tables
                           WHERE table_schema = 'public' AND table_type = 'BASE TABLE')) c
"""

PG_CONSTRAINTS = """
SELECT coalesce(json_agg(c ORDER BY tbl, name), '[]')
FROM (SELECT t.relname AS tbl, con.conname AS name, con.contype AS type,
             (SELECT json_agg(a.attname ORDER BY k.ord)
              FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS cols,
             rt.relname AS ref,
             (SELECT json_agg(a.attname ORDER BY k.ord)
              FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_cols,
             con.confdeltype AS on_delete
      FROM pg_constraint con
      JOIN pg_class t ON t.oid = con.conrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_class rt ON rt.oid = con.confrelid
      WHERE con.contype IN ('p', 'u', 'f', 'c')) c
"""

PG_INDEXES = """
SELECT coalesce(json_agg(i ORDER BY name), '[]')
FROM (SELECT ic.relname AS name, t.relname AS tbl, ix.indisunique AS is_unique,
             ix.indpred IS NOT NULL AS partial,
             (SELECT json_agg(CASE WHEN k.attnum = 0 THEN '<expr>' ELSE a.attname END ORDER BY k.ord)
              FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
              LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
              WHERE k.ord <= ix.indnkeyatts) AS cols
      FROM pg_index ix
      JOIN pg_class ic ON ic.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
      WHERE NOT EXISTS (SELECT 1 FROM pg_constraint con
                        WHERE con.conindid = ix.indexrelid AND con.contype IN ('p', 'u', 'x'))) i
"""

ON_DELETE = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


def read_postgres(url):
    s = Schema()
    for c in psql_json(url, PG_COLUMNS):
        table = c["table_name"]
        if table in IGNORED_TABLES:
            continue
        cls = pg_type_class(c["data_type"])
        s.columns.setdefault(table, []).append(
            (
                c["column_name"],
                c["is_nullable"] == "YES",
                cls,
                c["is_identity"] == "YES",
                norm_default(c["column_default"], cls),
            )
        )
    for table in s.columns:
        s.primary_keys[table] = ()
        s.uniques[table] = []
        s.foreign_keys[table] = []
        s.checks[table] = 0
    for con in psql_json(url, PG_CONSTRAINTS):
        table = con["tbl"]
        if table not in s.columns:
            continue
        cols = tuple(con["cols"] or ())
        if con["type"] == "p":
            s.primary_keys[table] = cols
        elif con["type"] == "u":
            s.uniques[table].append(cols)
        elif con["type"] == "f":
            s.foreign_keys[table].append(
                (cols, con["ref"], tuple(con["ref_cols"] or ()), ON_DELETE.get(con["on_delete"], con["on_delete"]))
            )
        elif con["type"] == "c":
            s.checks[table] += 1
    for table in s.columns:
        s.uniques[table].sort()
        s.foreign_keys[table].sort()
    for ix in psql_json(url, PG_INDEXES):
        if ix["name"].endswith("_trgm") or ix["tbl"] not in s.columns:
            continue
        s.indexes[ix["name"]] = (ix["tbl"], ix["is_unique"], tuple(ix["cols"] or ())) + (
            ("partial",) if ix["partial"] else ()
        )
    return s


def show_column(c):
    name, nullable, cls, generated, default = c
    text = f"{name} {cls}{'' if nullable else ' NOT NULL'}"
    if generated:
        text += " (generated id)"
    if default is not None:
        text += f" DEFAULT {default}"
    return text


def compare(lite, pg):
    diffs = []
    lt, pt = set(lite.columns), set(pg.columns)
    for t in sorted(lt - pt):
        diffs.append(f"table {t}: only in SQLite")
    for t in sorted(pt - lt):
        diffs.append(f"table {t}: only in PostgreSQL")
    common = sorted(lt & pt)
    for t in common:
        lc, pc = lite.columns[t], pg.columns[t]
        if [c[0] for c in lc] != [c[0] for c in pc]:
            diffs.append(
                f"table {t}: columns differ\n    SQLite:     {', '.join(c[0] for c in lc)}"
                f"\n    PostgreSQL: {', '.join(c[0] for c in pc)}"
            )
        pcs = {c[0]: c for c in pc}
        for c in lc:
            if c[0] in pcs and c != pcs[c[0]]:
                diffs.append(
                    f"column {t}.{c[0]}:\n    SQLite:     {show_column(c)}\n    PostgreSQL: {show_column(pcs[c[0]])}"
                )
        for what, l, p in (
            ("primary key", lite.primary_keys[t], pg.primary_keys[t]),
            ("unique constraints", lite.uniques[t], pg.uniques[t]),
            ("foreign keys", lite.foreign_keys[t], pg.foreign_keys[t]),
            ("CHECK constraints", lite.checks[t], pg.checks[t]),
        ):
            if l != p:
                diffs.append(f"table {t}: {what} differ\n    SQLite:     {l}\n    PostgreSQL: {p}")
    for name in sorted(set(lite.indexes) | set(pg.indexes)):
        l, p = lite.indexes.get(name), pg.indexes.get(name)
        if l != p:
            diffs.append(f"index {name}:\n    SQLite:     {l}\n    PostgreSQL: {p}")
    diffs.extend(n[5:] for n in lite.notes if n.startswith("DIFF "))
    return diffs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sqlite_file")
    parser.add_argument("postgres_url")
    parser.add_argument(
        "--boolean",
        action="append",
        default=[],
        metavar="TABLE.COLUMN",
        help="another SQLite INTEGER column that is BOOLEAN in PostgreSQL",
    )
    args = parser.parse_args()
    booleans = BOOLEAN_COLUMNS | set(args.boolean)
    try:
        lite = read_sqlite(args.sqlite_file, booleans)
    except sqlite3.Error as e:
        print(f"compare-schemas: {args.sqlite_file}: {e}", file=sys.stderr)
        return 2
    pg = read_postgres(args.postgres_url)

    for note in lite.notes:
        if not note.startswith("DIFF "):
            print(note)
    diffs = compare(lite, pg)
    common = set(lite.columns) & set(pg.columns)
    n_cols = sum(len(lite.columns[t]) for t in common)
    n_fks = sum(len(lite.foreign_keys[t]) for t in common)
    n_uniques = sum(len(lite.uniques[t]) for t in common)
    n_checks = sum(lite.checks[t] for t in common)
    print(
        f"compared {len(common)} tables, {n_cols} columns, {n_uniques} unique constraints, "
        f"{n_fks} foreign keys, {n_checks} CHECK constraints, "
        f"{len(set(lite.indexes) | set(pg.indexes))} indexes; "
        f"boolean columns: {', '.join(sorted(booleans))}"
    )
    if not diffs:
        print("the schemas agree")
        return 0
    print(f"{len(diffs)} difference(s):")
    for d in diffs:
        print("- " + d)
    return 1


if __name__ == "__main__":
    sys.exit(main())
