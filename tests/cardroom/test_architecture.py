"""The architecture's promises that a test can check from the outside.

- The rules packages (and the kernel's plain modules) load without Django, in a fresh
  interpreter, so an import hidden inside a function would still be caught.
- Every rule a refusal can name has its section, anchor and identifier in docs/rules.md.
- The repository is self-contained: nothing points at a document outside it.
- Plain SQL is sent only where docs/architecture.md allows it, each hand-written statement
  is proved against the ORM, and no SQL text writes an app's table out (the models'
  metadata names them: ``cardroom.sql.table``, ``Alias``).
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.errors import Rule

BASE_DIR = Path(__file__).resolve().parents[2]
PLAIN_PACKAGES = [
    "tables.rules.cards",
    "tables.rules.deck",
    "tables.rules.decisions",
    "tables.rules.hands",
    "tables.rules.identity",
    "tables.rules.options",
    "tables.rules.paytables",
    "tables.rules.rotation",
    "tables.rules.seats",
    "tables.rules.visibility",
    "wagers.rules.calculator",
    "wagers.rules.resolution",
    "wagers.rules.settlement",
    "wagers.rules.showdown",
    "wagers.rules.validation",
    "wagers.rules.wagers",
    "fees.rules.assessment",
    "fees.rules.schedule",
    "cardroom.errors",
    "cardroom.money",
    "cardroom.figures",
    "cardroom.history",
    "cardroom.bounds",
]
# Every module of every game (each game's rules are plain Python, like the apps' rules).
PLAIN_PACKAGES += sorted(
    ".".join(path.relative_to(BASE_DIR).with_suffix("").parts).removesuffix(".__init__")
    for path in (BASE_DIR / "games").rglob("*.py")
)


@pytest.mark.parametrize("module", PLAIN_PACKAGES)
def test_a_rules_module_loads_without_django(module):
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'rest_framework', 'celery', 'django_filters', 'drf_spectacular'))\n"
        "print(','.join(loaded))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(BASE_DIR)}  # no DJANGO_SETTINGS_MODULE
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"{module} loaded {done.stdout.strip()}"


def _sections(text: str) -> dict[str, str]:
    """docs/rules.md cut at its anchors: anchor id -> the text up to the next anchor."""
    parts = re.split(r'<a id="(s[0-9-]+)"></a>', text)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


RULES_MD = (BASE_DIR / "docs" / "rules.md").read_text()


@pytest.mark.parametrize("rule", list(Rule), ids=[rule.value for rule in Rule])
def test_every_rule_is_stated_in_its_section_of_the_rules_document(rule):
    sections = _sections(RULES_MD)
    assert rule.anchor in sections, f"docs/rules.md has no anchor {rule.anchor} for {rule}"
    body = sections[rule.anchor]
    heading = body.strip().splitlines()[0]
    assert re.match(rf"#+ {re.escape(rule.section)}[. ]", heading), heading
    assert f"`{rule.value}`" in body, f"§{rule.section} does not name {rule.value}"


def test_the_rules_document_names_no_rule_the_system_does_not_know():
    named = set(re.findall(r"`([a-z0-9_]+\.[a-z0-9_]+)`", "\n".join(
        line for line in RULES_MD.splitlines() if line.startswith(("Rule:", "Rules:"))
    )))  # fmt: skip
    assert named == {rule.value for rule in Rule}


def test_every_anchor_is_unique_and_every_identifier_names_one_rule():
    anchors = re.findall(r'<a id="(s[0-9-]+)"></a>', RULES_MD)
    assert len(anchors) == len(set(anchors))
    assert len({rule.value for rule in Rule}) == len(Rule)


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    return [BASE_DIR / name for name in listed if name and not name.startswith(".ci/")]


def test_nothing_in_the_repository_points_outside_it():
    # Spelled in pieces so this file does not name what it looks for.
    forbidden = re.compile("RULE" + "BOOK" + "|" + re.escape("../" + "shared"))
    offenders = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        offenders += [
            f"{path.relative_to(BASE_DIR)}:{n}"
            for n, line in enumerate(text.splitlines(), 1)
            if forbidden.search(line)
        ]
    assert offenders == []


# --- Plain SQL: only in the SQL homes, each statement proved against the ORM ---------------

SQL_HOMES = sorted(path.parent.name for path in BASE_DIR.glob("*/sql.py"))
# Modules that send SQL of their own outside the SQL homes, each for a reason the SQL homes
# do not serve (docs/architecture.md, "Plain SQL"): none on the hot path.
SENDS_SQL_ELSEWHERE = {
    "cardroom/history.py": "the history guards' DDL, run by the migrations",
    "wagers/verification.py": "verify_ledger's checks, one read-only snapshot",
    "reports/services.py": "a report's read-only snapshot",
    "reports/writers.py": "a report's rows streamed by COPY",
    "tables/selectors/board.py": "the table board's statement as the ORM writes it, compiled once",
}
APP_PACKAGES = ["cardroom", "tables", "wagers", "fees", "rounds", "reports", "console", "games"]


def _sends_sql(path: Path) -> list[str]:
    """The calls in ``path`` that send SQL past the ORM's query builder."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Attribute):  # cursor.execute, connection.cursor, .raw
            sends = function.attr in {"cursor", "execute", "executemany", "raw", "extra"}
        else:
            sends = getattr(function, "id", "") == "RawSQL"
        if sends:
            name = ast.unparse(function)
            found.append(f"{name} (line {node.lineno})")
    return found


def test_only_the_sql_homes_send_sql_of_their_own():
    assert {"cardroom", "tables", "wagers", "fees", "rounds"} <= set(SQL_HOMES)
    senders = {}
    for package in APP_PACKAGES:
        for path in sorted((BASE_DIR / package).rglob("*.py")):
            relative = path.relative_to(BASE_DIR).as_posix()
            if "/migrations/" in relative or path.name == "sql.py":
                continue
            calls = _sends_sql(path)
            if calls:
                senders[relative] = calls
    assert set(senders) == set(SENDS_SQL_ELSEWHERE), senders


def test_every_hand_written_statement_is_proved_against_the_orm():
    """Each statement of an SQL home is registered (``cardroom.sql.statement``, ``reads``)
    with a test that exists and names it."""
    from cardroom.sql import STATEMENTS

    for home in SQL_HOMES:
        importlib.import_module(f"{home}.sql")
    homes = {name.split(".")[0] for name in STATEMENTS}
    assert homes == set(SQL_HOMES) - {"cardroom"}
    for name, proved_by in STATEMENTS.items():
        test = BASE_DIR / proved_by
        assert test.is_file(), (name, proved_by)
        assert name in test.read_text(), f"{proved_by} does not name {name}"


# An app's table as SQL text names it: any of the project's models' tables, and any name an
# app's next table would have.
APP_TABLE = re.compile(r"\b(?:tables|wagers|fees|rounds|reports)_[a-z_]+\b")
# SQL text, as the project writes it (keywords in capitals).
SQL_TEXT = re.compile(r"\b(?:SELECT|FROM|JOIN|INTO|UPDATE|DELETE|COPY|WHERE|TABLE)\b")
# Python modules beside the apps' that send SQL of their own (the benchmarks' bulk loaders).
SQL_TEXT_ELSEWHERE = ["bench"]


def _project_tables() -> set[str]:
    from django.apps import apps

    packages = set(APP_PACKAGES)
    return {
        model._meta.db_table
        for model in apps.get_models(include_auto_created=True)
        if model.__module__.split(".")[0] in packages
    }


def _sql_texts(path: Path) -> list[tuple[int, str]]:
    """Every string in ``path`` that reads as SQL (an f-string: its text, ``{}`` for each
    value it formats), docstrings and other bare strings aside."""
    tree = ast.parse(path.read_text())
    skipped = {  # docstrings and bare strings; an f-string's pieces (read with it)
        id(part)
        for node in ast.walk(tree)
        for part in (
            node.values
            if isinstance(node, ast.JoinedStr)
            else [node.value]
            if isinstance(node, ast.Expr)
            else []
        )
    }
    texts = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
        else:
            continue
        if SQL_TEXT.search(text):
            texts.append((node.lineno, text))
    return texts


def test_no_sql_text_names_an_app_table():
    """Every table and column the project's SQL names comes from the models' metadata
    (``cardroom.sql.table``, ``Alias``): no module writes an app's table out in SQL text,
    in the SQL homes or in the verifier's and the reports' read-only SQL alike."""
    tables = _project_tables()
    assert {"wagers_ledgertransaction", "tables_round", "fees_feeline"} <= tables
    named = re.compile(APP_TABLE.pattern + "|" + "|".join(rf"\b{t}\b" for t in sorted(tables)))
    offenders = []
    for package in [*APP_PACKAGES, *SQL_TEXT_ELSEWHERE]:
        for path in sorted((BASE_DIR / package).rglob("*.py")):
            relative = path.relative_to(BASE_DIR).as_posix()
            if "/migrations/" in relative:
                continue
            offenders += [
                f"{relative}:{line}: {found.group(0)}"
                for line, text in _sql_texts(path)
                if (found := named.search(text))
            ]
    assert offenders == []


def test_the_sql_text_check_finds_a_table_written_out(tmp_path):
    module = tmp_path / "module.py"
    module.write_text(
        '"""Reads FROM wagers_bet (a docstring: not SQL)."""\n'
        'ok = f"SELECT {B.id} FROM {B}"\n'
        'written = f"SELECT b.id FROM wagers_bet b WHERE b.id = {pk}"\n'
        'words = "wagers_in_play"\n'
    )
    assert _sql_texts(module) == [
        (2, "SELECT {} FROM {}"),
        (3, "SELECT b.id FROM wagers_bet b WHERE b.id = {}"),
    ]
