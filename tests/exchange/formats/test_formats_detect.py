"""One way in: the format found from the content, our own logs given back untouched, and
hostile files refused with a ``FormatError`` of a stable code, never another exception."""

from __future__ import annotations

import contextlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.exchange.formats import detect
from games.exchange.formats.detect import MAX_FILE_BYTES, read_play_file
from games.exchange.formats.plays import FormatError, PlayFile

FILES = Path(__file__).parent / "files"
EXPORT = (FILES / "BGStatsExport.json").read_bytes()

POTDEVIN_LOG = {
    "format": "potdevin-log/1",
    "players": ["Anna", "Bruno", "Chiara"],
    "first_player": 0,
}
COMPLOTS_LOG = {"format": "complots-log/1", "players": ["Anna", "Bruno"], "first_player": 1}


def refused(data: bytes, **kwargs: Any) -> FormatError:
    with pytest.raises(FormatError) as error:
        read_play_file(data, **kwargs)
    return error.value


def zipped(*members: tuple[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in members:
            archive.writestr(name, content)
    return buffer.getvalue()


# --- the format, from the content --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "app", "kind"),
    [
        ("BGStatsExport.json", "bgstats", "bgstats-export"),
        ("BGStatsExport-old.json", "bgstats", "bgstats-export"),
        ("BGStatsExport.zip", "bgstats", "bgstats-export"),
        ("serata-azul.bgsplay", "bgstats", "bgsplay"),
        ("bgg-plays.xml", "bgg", "bgg-xml"),
    ],
)
def test_each_file_is_found_by_its_content_whatever_its_name(
    name: str, app: str, kind: str
) -> None:
    found = read_play_file((FILES / name).read_bytes(), filename="renamed.txt")
    assert isinstance(found, PlayFile)
    assert (found.app, found.kind) == (app, kind)


def test_a_byte_order_mark_and_utf16_are_read() -> None:
    text = EXPORT.decode("utf-8")
    for data in (b"\xef\xbb\xbf" + EXPORT, text.encode("utf-16")):
        found = read_play_file(data)
        assert isinstance(found, PlayFile) and len(found.plays) == 8
    xml = (FILES / "bgg-plays.xml").read_bytes()
    found = read_play_file(b"\xef\xbb\xbf\n  " + xml)
    assert isinstance(found, PlayFile) and found.kind == "bgg-xml"


def test_our_own_logs_are_given_back_untouched() -> None:
    one = json.dumps(POTDEVIN_LOG).encode()
    assert read_play_file(one) == [POTDEVIN_LOG]
    both = json.dumps([POTDEVIN_LOG, COMPLOTS_LOG]).encode()
    assert read_play_file(both) == [POTDEVIN_LOG, COMPLOTS_LOG]
    # Keys the log import prunes or refuses are its business, not this one's.
    odd = dict(POTDEVIN_LOG, rounds=[{"anything": 1}], extra="kept")
    assert read_play_file(json.dumps(odd).encode()) == [odd]
    assert read_play_file(zipped(("game.json", one))) == [POTDEVIN_LOG]


@pytest.mark.parametrize(
    ("doc", "code"),
    [
        ({"format": "potdevin-log/2", "players": []}, "unknown_version"),
        ({"format": "bruges-log/0"}, "unknown_version"),
        ({"format": "carcassonne-log/1"}, "unknown_format"),
        ({"format": 1}, "malformed"),
        ({"format": None}, "malformed"),
        ([POTDEVIN_LOG, {"players": []}], "malformed"),
        ([POTDEVIN_LOG, None], "malformed"),
        ([POTDEVIN_LOG, {"format": "complots-log/9"}], "unknown_version"),
    ],
)
def test_a_log_no_engine_reads_is_refused(doc: Any, code: str) -> None:
    assert refused(json.dumps(doc).encode()).code == code


@pytest.mark.parametrize(
    "doc",
    [{}, [], [1, 2], "plays", 3, None, True, {"plays": []}, {"games": [], "players": []}],
)
def test_json_of_no_known_format_is_unknown(doc: Any) -> None:
    error = refused(json.dumps(doc).encode(), filename="notes.json")
    assert error.code == "unknown_format"
    assert "notes.json" in error.message


@pytest.mark.parametrize(
    "data", [b"", b"   \n\t", b"hello", b"\xff\xfe\xfa", b'{"plays": [', b"PK", b"\x00" * 10]
)
def test_no_file_of_any_format_is_refused(data: bytes) -> None:
    assert refused(data).code in {"empty", "malformed", "unknown_format"}


# --- limits ----------------------------------------------------------------------------------


def test_a_file_over_the_limit_is_refused_before_it_is_read() -> None:
    assert MAX_FILE_BYTES == 20 * 1024 * 1024
    assert refused(b" " * (MAX_FILE_BYTES + 1)).code == "too_large"
    assert refused(EXPORT, max_bytes=len(EXPORT) - 1).code == "too_large"
    assert isinstance(read_play_file(EXPORT, max_bytes=len(EXPORT)), PlayFile)


@pytest.mark.parametrize("depth", [33, 500, 100_000])
def test_json_nested_too_deep_is_refused(depth: int) -> None:
    for body in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth):
        assert refused(body).code == "too_deep"


def test_json_nested_to_the_limit_is_read() -> None:
    body = b'{"plays": [], "games": [' + b"[" * 29 + b"]" * 29 + b"]}"
    found = read_play_file(body)
    assert isinstance(found, PlayFile) and found.plays == []


def test_a_zip_bomb_stops_at_the_limit() -> None:
    # 64 MB of spaces deflate to about 64 kB; the header's size is honest here...
    bomb = zipped(("BGStatsExport.json", b" " * (64 * 1024 * 1024)))
    assert len(bomb) < 200_000
    assert refused(bomb).code == "too_large"
    # ...and a lying header is caught while reading.
    small = zipped(("BGStatsExport.json", b"{" + b" " * (2 * 1024 * 1024) + b"}"))
    assert refused(small, max_bytes=1024 * 1024).code == "too_large"
    lying = _with_lying_size(small, 10)
    assert refused(lying, max_bytes=1024 * 1024).code in {"too_large", "malformed"}


def _with_lying_size(data: bytes, size: int) -> bytes:
    """``data`` (a zip of one file) with the file's uncompressed size rewritten to ``size`` in
    its local header and the central directory."""
    out = bytearray(data)
    local = out.index(b"PK\x03\x04")
    out[local + 22 : local + 26] = size.to_bytes(4, "little")
    central = out.index(b"PK\x01\x02")
    out[central + 24 : central + 28] = size.to_bytes(4, "little")
    return bytes(out)


def test_zips_holding_too_much_or_not_one_clear_file_are_refused() -> None:
    many = zipped(*((f"f{i}.txt", b"x") for i in range(6)))
    assert refused(many).code == "too_many_files"
    assert refused(zipped()).code == "malformed"
    two_json = zipped(("a.json", EXPORT), ("b.json", EXPORT))
    assert refused(two_json).code == "malformed"
    inner = zipped(("BGStatsExport.json", EXPORT))
    assert refused(zipped(("export.zip", inner))).code == "unknown_format"
    assert refused(EXPORT[:0] + b"PK\x03\x04garbage").code == "malformed"
    truncated = zipped(("BGStatsExport.json", EXPORT))[:-40]
    assert refused(truncated).code == "malformed"


def test_a_zip_with_a_readme_and_mac_files_reads_its_json() -> None:
    data = zipped(
        ("__MACOSX/._BGStatsExport.json", b"\x00\x05\x16\x07"),
        ("README.txt", b"BG Stats backup"),
        ("BGStatsExport.json", EXPORT),
        (".DS_Store", b"\x00"),
    )
    found = read_play_file(data)
    assert isinstance(found, PlayFile) and len(found.plays) == 8


def test_a_corrupted_member_is_malformed() -> None:
    data = bytearray(zipped(("BGStatsExport.json", EXPORT)))
    start = data.index(b"BGStatsExport.json") + len("BGStatsExport.json") + 10
    data[start : start + 20] = b"\xff" * 20  # the deflated stream, broken
    assert refused(bytes(data)).code == "malformed"


# --- hostile JSON ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"plays": [], "games": [1' + b"0" * 100 + b"]}", "out_of_range"),
        (b'{"plays": [], "games": [-' + b"9" * 5000 + b"]}", "out_of_range"),
        (b'{"plays": [NaN], "games": []}', "malformed"),
        (b'{"plays": [Infinity], "games": []}', "malformed"),
        (b'{"plays": [], "games": [] ', "malformed"),
        (b'{"plays": [], "games": []} []', "malformed"),
    ],
)
def test_json_no_parser_should_take_is_refused(body: bytes, code: str) -> None:
    assert refused(body).code == code


def test_hostile_values_in_an_export_are_skipped_plays_not_errors() -> None:
    def read_changed(change: Any) -> PlayFile:
        doc = json.loads(EXPORT)
        change(doc)
        found = read_play_file(json.dumps(doc).encode())
        assert isinstance(found, PlayFile)
        for skipped in found.skipped:
            assert skipped.message.isprintable()
        return found

    def surrogate(doc: Any) -> None:
        doc["players"][0]["name"] = "\ud800Anna"  # a lone surrogate, as a JSON escape

    def nul(doc: Any) -> None:
        doc["players"][1]["name"] = "Bru\x00no"

    def huge(doc: Any) -> None:
        doc["plays"][2]["playerScores"][0]["seatOrder"] = 2**64 + 1
        doc["plays"][3]["durationMin"] = 2**64 + 1
        doc["plays"].append(None)
        doc["plays"].append([None])

    # Anna plays every play; Bruno 0001, 0002, 0003, 0005, 0006.
    assert read_changed(surrogate).plays == []
    assert {s.code for s in read_changed(surrogate).skipped} >= {"invalid_text"}
    found = read_changed(nul)
    assert [p.external_id[-4:] for p in found.plays] == ["0004", "0007", "0014"]
    found = read_changed(huge)
    assert [(s.external_id or "")[-4:] for s in found.skipped if s.code == "out_of_range"] == [
        "0003"
    ]
    assert [s.code for s in found.skipped[-2:]] == ["malformed", "malformed"]
    (lost,) = [p for p in found.plays if p.external_id.endswith("0004")]
    assert lost.duration is None
    assert [p.code for p in lost.problems] == ["bad_duration"]


WEIRD = [
    None,
    True,
    0,
    -1,
    2**64 + 1,
    -(2**64) - 1,
    1.5,
    1e308,
    "",
    "x\x00",
    "\ud800",
    "9" * 500,
    [],
    [None],
    {},
    {"": None},
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(_paths(child, (*path, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_paths(child, (*path, index)))
    return found


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


def _read_or_refuse(doc: Any) -> None:
    try:
        body = json.dumps(doc).encode("utf-8", "surrogatepass")
    except (ValueError, OverflowError):  # a value json cannot write (1e308 can; inf cannot)
        return
    try:
        found = read_play_file(body)
    except FormatError as error:
        assert error.code and error.message
        return
    if isinstance(found, PlayFile):
        for play in found.plays:
            assert len(play.fingerprint) == 64
        for skipped in found.skipped:
            assert skipped.code and skipped.message


def test_every_value_of_a_shared_play_replaced_by_anything_is_read_or_refused() -> None:
    """Wrong types at every level: each value of the file in turn, replaced by each of a list
    of hostile values. The file is read (plays, skipped plays and problems) or refused with a
    ``FormatError``; no other exception escapes."""
    original = json.loads((FILES / "serata-azul.bgsplay").read_text())
    paths = _paths(original)
    assert len(paths) >= 80
    for path in paths:
        for value in WEIRD:
            doc = json.loads(json.dumps(original))
            _read_or_refuse(_set(doc, path, value))


def test_every_value_of_a_bgg_play_replaced_by_anything_is_read_or_refused() -> None:
    from xml.sax.saxutils import quoteattr

    xml = (FILES / "bgg-plays.xml").read_text()
    for attribute in (
        "id",
        "date",
        "quantity",
        "length",
        "incomplete",
        "objectid",
        "name",
        "userid",
        "username",
        "score",
        "win",
        "new",
        "startposition",
        "color",
    ):
        for value in ("", "-1", "0", "1", "x", "9" * 40, "1.5", "&#x1F600;", "<", "\u202e"):
            changed = xml.replace(f'{attribute}="', f"{attribute}={quoteattr(value)[:-1]}", 3)
            try:
                found = read_play_file(changed.encode())
            except FormatError as error:
                assert error.code in {"malformed", "forbidden_xml"}
                continue
            assert isinstance(found, PlayFile)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_exports_are_read_or_refused(data: st.DataObject) -> None:
    doc = json.loads(EXPORT)
    paths = _paths(doc)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        path = data.draw(st.sampled_from(paths))
        # An earlier change may have removed the place.
        with contextlib.suppress(KeyError, IndexError, TypeError):
            _set(doc, path, data.draw(JSON_VALUES))
    _read_or_refuse(doc)


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=300))
def test_any_bytes_are_read_or_refused(body: bytes) -> None:
    for data in (body, b"PK\x03\x04" + body, b"<plays>" + body, b'{"plays": [' + body):
        with contextlib.suppress(FormatError):
            read_play_file(data)


def test_limits_are_documented_constants() -> None:
    assert detect.MAX_ZIP_FILES == 5
    assert detect.MAX_JSON_DEPTH == 32
