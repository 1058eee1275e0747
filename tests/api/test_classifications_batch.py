"""POST /v2/categories/admin-batch-upload: categories, subcategories and tags from a CSV or an XLSX
file (built here), all rows or none, with a report per row; and the seed leaves renamed entries alone."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from fastapi.testclient import TestClient
from openpyxl import Workbook  # type: ignore[import-untyped]
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications import batch
from app.classifications.models import Category, DictionaryName, Subcategory, Tag
from app.classifications.seed import load_dictionaries
from tests import factories

URL = "/v2/categories/admin-batch-upload"
HEADER = ["kind", "name", "name_ru", "category", "topic", "description", "is_active"]
GOOD = [
    ["category", "Zoos", "Зоопарки", "", "", "", ""],
    ["subcategory", "Big Cats", "Большие кошки", "Zoos", "", "", ""],
    ["tag", "Lion", "Лев", "", "Zoos", "The king of the savanna", "yes"],
    ["category", "Museums", "Музеи", "", "", "", ""],
]


@pytest.fixture
def admin(db: Session) -> dict[str, str]:
    row = factories.user(db, admin=True)
    factories.category(db, "Museums")
    db.commit()
    return factories.bearer(row)


def csv_file(rows: Sequence[Sequence[str]], delimiter: str = ",") -> bytes:
    lines = [delimiter.join(cell if delimiter not in cell else f'"{cell}"' for cell in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def xlsx_file(rows: Sequence[Sequence[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def upload(client: TestClient, headers: dict[str, str], content: bytes, name: str, dry_run: bool = False) -> dict:  # type: ignore[type-arg]
    response = client.post(
        URL,
        files={"file": (name, content, "application/octet-stream")},
        data={"dry_run": str(dry_run).lower()},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def counts(db: Session) -> tuple[int, int, int, int]:
    db.expire_all()
    return (
        db.scalar(select(func.count()).select_from(Category)) or 0,
        db.scalar(select(func.count()).select_from(Subcategory)) or 0,
        db.scalar(select(func.count()).select_from(Tag)) or 0,
        db.scalar(select(func.count()).select_from(DictionaryName)) or 0,
    )


def test_a_csv_file_is_applied_row_by_row(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    answer = upload(client, admin, csv_file([HEADER, *GOOD]), "dictionaries.xlsx")  # the name does not matter
    assert answer["applied"] is True and answer["errors"] == 0
    assert (answer["created"], answer["updated"]) == (3, 1)
    assert [(row["row"], row["status"], row["kind"]) for row in answer["report"]] == [
        (2, "created", "category"),
        (3, "created", "subcategory"),
        (4, "created", "tag"),
        (5, "updated", "category"),
    ]
    zoo = db.scalar(select(Category).where(Category.name == "Zoos"))
    assert zoo is not None and answer["report"][0]["id"] == zoo.id
    lion = db.scalar(select(Tag).where(Tag.name == "Lion"))
    assert lion is not None and lion.topic_id == zoo.id and lion.description == "The king of the savanna"
    russian = {row["name"] for row in client.get("/v2/categories/", headers={"Accept-Language": "ru"}).json()["data"]}
    assert russian == {"Зоопарки", "Музеи"}
    # The same file again only updates.
    again = upload(client, admin, csv_file([HEADER, *GOOD], delimiter=";"), "again.csv")
    assert (again["created"], again["updated"], again["applied"]) == (0, 4, True)


def test_an_xlsx_file_is_read_by_its_content(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    rows: list[list[object]] = [["Kind", "Name", "Name RU", "Category", "is_active"]]
    rows += [["category", "Zoos", "Зоопарки", None, True], ["subcategory", "Reptiles", None, "Zoos", None]]
    answer = upload(client, admin, xlsx_file(rows), "upload.csv")
    assert answer["applied"] is True and answer["created"] == 2
    zoo = db.scalar(select(Category).where(Category.name == "Zoos"))
    assert zoo is not None
    assert db.scalar(select(Subcategory.name).where(Subcategory.category_id == zoo.id)) == "Reptiles"
    # An id in a spreadsheet cell is a number: it names the row to update (here: a rename).
    renamed = upload(
        client, admin, xlsx_file([["kind", "name", "id"], ["category", "Zoological Gardens", zoo.id]]), "r.xlsx"
    )
    assert renamed["report"][0]["status"] == "updated"
    db.expire_all()
    assert db.get(Category, zoo.id).name == "Zoological Gardens"  # type: ignore[union-attr]


def test_one_bad_row_and_nothing_is_applied(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    before = counts(db)
    rows = [
        HEADER,
        *GOOD[:3],
        ["subcategory", "Penguins", "", "Aquariums", "", "", ""],  # no such category
        ["tag", "Tiger", "", "", "Zoos", "", "maybe"],  # bad is_active
        ["planet", "Mars", "", "", "", "", ""],  # bad kind
        ["category", "zoos", "", "", "", "", ""],  # an update of row 2's category: fine
        ["category", "Aquariums", "ЗООПАРКИ", "", "", "", ""],  # Russian name of row 2's category
    ]
    answer = upload(client, admin, csv_file(rows), "bad.csv")
    assert answer["applied"] is False and answer["errors"] == 4
    assert "nothing was applied" in answer["message"]
    report = {row["row"]: row for row in answer["report"]}
    assert (report[5]["status"], report[5]["field"], report[5]["message"]) == (
        "error",
        "category",
        "No category named “Aquariums”",
    )
    assert (report[6]["field"], report[7]["field"], report[9]["field"]) == ("is_active", "kind", "name_ru")
    assert report[2]["status"] == "created" and report[2]["message"] == "Would be created" and report[2]["id"] is None
    assert report[8]["status"] == "updated"
    assert counts(db) == before
    assert db.scalar(select(Category).where(Category.name == "Zoos")) is None


def test_a_dry_run_reports_and_changes_nothing(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    before = counts(db)
    answer = upload(client, admin, csv_file([HEADER, *GOOD]), "dry.csv", dry_run=True)
    assert (answer["applied"], answer["dry_run"], answer["errors"], answer["created"]) == (False, True, 0, 3)
    assert answer["message"] == "Every row is valid (dry run: nothing was applied)"
    assert counts(db) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", batch.WRONG_TYPE),
        (b"", batch.EMPTY),
        (b"kind,name\n", batch.EMPTY),
        (b"name,colour\nZoos,red\n", batch.MISSING_COLUMNS),
        (b"kind,name,colour\ncategory,Zoos,red\n", batch.UNKNOWN_COLUMNS.format(names="colour")),
        ("kind,name\ncategory,Zoos\n".encode("utf-16"), batch.WRONG_TYPE),
        (b"kind,name\ncategory,Caf\xe9\n", batch.NOT_UTF8),
        (b"PK\x03\x04" + b"\0" * 64, batch.WRONG_TYPE),
    ],
)
def test_files_that_are_not_usable_are_400s(
    client: TestClient, db: Session, admin: dict[str, str], content: bytes, message: str
) -> None:
    response = client.post(URL, files={"file": ("f.csv", content, "text/csv")}, headers=admin)
    assert response.status_code == 400, response.text
    assert response.json()["message"] == message and response.json()["fields"] == {"file": message}


def test_size_and_row_limits(client: TestClient, admin: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    big = b"kind,name\n" + b"category," + b"x" * (batch.MAX_BYTES + 10) + b"\n"
    response = client.post(URL, files={"file": ("big.csv", big, "text/csv")}, headers=admin)
    assert response.status_code == 400 and response.json()["message"] == "The file is 2.0 MB; the maximum is 2 MB"
    monkeypatch.setattr(batch, "MAX_ROWS", 3)
    rows = csv_file([["kind", "name"], *[["category", f"C{number}"] for number in range(4)]])
    too_many = client.post(URL, files={"file": ("rows.csv", rows, "text/csv")}, headers=admin)
    assert too_many.status_code == 400 and too_many.json()["fields"] == {"file": batch.TOO_MANY_ROWS}


def test_only_admins_upload(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    content = csv_file([HEADER, *GOOD])
    assert (
        client.post(URL, files={"file": ("f.csv", content, "text/csv")}, headers=factories.bearer(user)).status_code
        == 403
    )
    assert client.post(URL, files={"file": ("f.csv", content, "text/csv")}).status_code == 401
    assert counts(db)[0] == 0


def test_the_seed_leaves_renamed_entries_alone(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    load_dictionaries(db)
    db.commit()
    before = counts(db)
    aerial = db.scalar(select(Category).where(Category.slug == "aerial"))
    assert aerial is not None
    sculpture = db.scalar(select(Tag).where(Tag.name == "Sculpture"))
    assert sculpture is not None
    client.put("/v2/categories/", json={"id": aerial.id, "name": "Drone Views"}, headers=admin)
    client.put("/v2/categories/admin-tags", json={"id": sculpture.id, "name": "Statues"}, headers=admin)
    load_dictionaries(db)
    db.commit()
    assert counts(db) == before
    assert db.scalar(select(Tag).where(Tag.name == "Sculpture")) is None
