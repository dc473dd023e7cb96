"""signprep: find ``<# TAG_ID #>`` text tags and AcroForm fields in PDFs.

Records are plain dicts and lists, the same content as one line of
``signprep scan --format ndjson``: ``json.dumps``, pandas and Spark rows take
them as they are. Coordinates are pixels from the top-left of page 0, pages
stacked vertically; pages are numbered from 0.

>>> import signprep
>>> record = signprep.scan("contract.pdf")          # doctest: +SKIP
>>> [t["tag_id"] for t in record["tags"]]            # doctest: +SKIP
['SIG_1', 'DATE_1']

Single-file calls raise a :class:`signprep.Error` subclass for a file that
cannot be scanned; :func:`scan_many` never raises for a bad PDF and gives its
error record (``"status": "error"``) in its place instead.

Word and OpenDocument templates (``.docx``, ``.odt``: by a path's extension,
or told by the bytes) are taken wherever a PDF is: LibreOffice converts them
as ``signprep scan`` does, and the record is the CLI's (``converted`` set, each
tag's ``source``: where it stands in the template). Without LibreOffice a
template raises :class:`ConvertFailed`.
"""

from __future__ import annotations

import atexit
import errno
import json
import math
import numbers
import os
from typing import (
    IO,
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    Union,
)

from . import _native

__version__: str = _native.__version__

# LibreOffice's scratch folders and profiles, kept for the process, go at exit.
atexit.register(_native.release_converters)

__all__ = [
    "Anchors",
    "CacheDir",
    "ConvertFailed",
    "Error",
    "InternalError",
    "IoError",
    "KindUnknown",
    "LimitExceeded",
    "PackError",
    "PdfEncrypted",
    "PdfUnreadable",
    "Record",
    "Source",
    "TypeMap",
    "check",
    "codes",
    "explain",
    "migrate",
    "pack",
    "scan",
    "scan_many",
]

#: A record, finding or body: JSON-shaped dicts.
Record = Dict[str, Any]

#: What a PDF (or, for :func:`check`, any input) can be given as: a path
#: (``str`` or ``os.PathLike``), its bytes, or a binary file object.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]

#: Service types for data fields, as ``scan --type-map``: a mapping of a field
#: name or tag id, or a glob (``SIG_*``, ``amount_[0-9]``; ``[[]`` for a literal
#: ``[``), to a service type (``"signature"``, ``"text"``...) or ``None`` to leave
#: the matching ones out; or ``NAME_OR_GLOB=TYPE`` strings. The last matching
#: rule wins.
TypeMap = Union[Mapping[str, Optional[str]], Sequence[str]]

#: Where converted templates are kept, by content hash, so a template seen
#: before is not converted again: a folder, ``None`` for the CLI's
#: (``$XDG_CACHE_HOME/signprep/convert``, else ``~/.cache/signprep/convert``), or
#: ``False`` to keep none between calls (``--no-cache``).
CacheDir = Union[None, str, "os.PathLike[str]", Literal[False]]

#: DocuSign anchor files (``--anchors``): a path, or several; each an envelope
#: definition, a template, any JSON holding ``tabs``/``recipients``, or the
#: short TOML form.
Anchors = Union[None, str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


class Error(Exception):
    """A file that could not be scanned, checked or packed.

    ``code`` is the stable code of the error record (``pdf_unreadable``,
    ``pdf_encrypted``, ``pdf_limit_exceeded``, ``io_error``, ``internal_error``,
    ...): ``signprep.explain(e.code)`` says what it means.
    """

    code: str = "error"

    def __init__(self, code: str, message: str, path: Optional[str] = None) -> None:
        super().__init__(f"{path}: {message} [{code}]" if path else f"{message} [{code}]")
        self.code = code
        self.message = message
        self.path = path


class PdfUnreadable(Error):
    """``pdf_unreadable``: not a PDF that can be made sense of."""


class PdfEncrypted(Error):
    """``pdf_encrypted``: a user password is needed (signprep asks for none)."""


class LimitExceeded(Error):
    """``pdf_limit_exceeded``: a decompression bomb, absurd nesting, the time budget..."""


# The reasons signprep says in its own words (signprep_core::io_reason), and their errno.
_ERRNO_OF_REASON = {
    "no such file": errno.ENOENT,
    "permission denied": errno.EACCES,
    "it is a folder": errno.EISDIR,
    "a part of its path is not a folder": errno.ENOTDIR,
    "the file system is read-only": errno.EROFS,
    "no space left on the device": errno.ENOSPC,
}


def _errno_of(message: str) -> Optional[int]:
    """The errno of an ``io_error`` message (``cannot read: no such file``), if it says one."""
    reason = message.rsplit(": ", 1)[-1]
    return _ERRNO_OF_REASON.get(reason)


class IoError(Error, OSError):
    """``io_error``: the file could not be read.

    Also an :class:`OSError`, so ``except OSError`` catches it as it catches
    ``open()``'s errors: ``filename`` is the path, ``strerror`` the message,
    and ``errno`` the error number of the reason the message names
    (``errno.ENOENT`` for "no such file", ``EACCES``, ``EISDIR``, ``ENOTDIR``,
    ``EROFS``, ``ENOSPC``), else ``None``.
    """

    def __init__(self, code: str, message: str, path: Optional[str] = None) -> None:
        super().__init__(code, message, path)
        self.errno = _errno_of(message)
        self.strerror = message
        self.filename = path

    def __str__(self) -> str:
        # Error's words (``PATH: MESSAGE [io_error]``), not OSError's ``[Errno N]`` form.
        return Exception.__str__(self)


class InternalError(Error):
    """``internal_error``: signprep failed on this input (a bug; please report it)."""


class ConvertFailed(Error):
    """``convert_failed``: a template (``.docx``, ``.odt``) could not be converted to PDF.

    LibreOffice is missing (the message says how to install it, or to pass
    ``soffice=PATH``), took longer than ``convert_timeout``, or refused the file.
    """


class KindUnknown(Error):
    """``kind_unknown``: :func:`check` cannot tell what the input is; pass ``kind=``."""


class PackError(Error):
    """:func:`pack` stopped on error-level findings; ``findings`` holds all of them."""

    def __init__(self, code: str, message: str, findings: List[Record], path: Optional[str] = None) -> None:
        super().__init__(code, message, path)
        self.findings = findings


_ERRORS: Dict[str, Type[Error]] = {
    "pdf_unreadable": PdfUnreadable,
    "pdf_encrypted": PdfEncrypted,
    "pdf_limit_exceeded": LimitExceeded,
    "io_error": IoError,
    "internal_error": InternalError,
    "kind_unknown": KindUnknown,
    "convert_failed": ConvertFailed,
}


def _shown(value: Any) -> str:
    """A value as an argument's message names it: its type and (short) repr."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def _real(name: str, value: Any) -> float:
    """A number argument: an int or a float, not a bool or a string (``dpi=True``
    would be 1 dpi, ``dpi="96"`` a typo that happens to parse)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, not {_shown(value)}")
    return float(value)


def _optional_real(name: str, value: Any) -> Optional[float]:
    return None if value is None else _real(name, value)


def _flag(name: str, value: Any) -> bool:
    """A yes/no argument: True or False (``fields="no"`` is not False)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, not {_shown(value)}")
    return value


# Longest wait signprep takes (std's Duration: 2**64 seconds).
_MAX_SECONDS = float(2**64)


def _seconds(name: str, value: Any, *, none: str) -> float:
    """Seconds: a number, 0 or more (0 allowed only when ``none`` says what it
    means), finite and within what a wait can be."""
    v = _real(name, value)
    if math.isnan(v) or v < 0 or (v == 0 and not none):
        least = f"0 or more ({none})" if none else "above 0"
        raise ValueError(f"{name}: {value!r} is not a number of seconds {least}")
    if v >= _MAX_SECONDS:
        raise ValueError(f"{name}: {v:g} s is longer than signprep can wait (under {_MAX_SECONDS:g} s)")
    return v


def _count(name: str, value: Any, least: int, what: str, most: int = 2**64 - 1) -> int:
    """A whole number from ``least`` to ``most`` (``what`` it counts, for the message)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected a whole number of {what}, not {_shown(value)}")
    n = int(value)
    if n < least:
        raise ValueError(f"{name}: {n} is below {least}: give a whole number of {what}, {least} or more")
    if n > most:
        raise ValueError(f"{name}: {n} is more than {most} {what}")
    return n


def _dialect_list(dialects: Any) -> str:
    """``"adobe,dropbox"``, ``"all"`` or a sequence of names, as one string."""
    if isinstance(dialects, str):
        return dialects
    if isinstance(dialects, (bytes, Mapping)) or not isinstance(dialects, Iterable):
        raise TypeError(f"dialects: expected a string ('adobe,dropbox', 'all') or a list of names, not {_shown(dialects)}")
    names = list(dialects)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"dialects: expected names (strings), not {_shown(n)}")
    return ",".join(names)


def _raise_for(record: Record) -> Record:
    """The record itself, or its error raised as the matching exception."""
    if record.get("status") == "error":
        err = record.get("error") or {}
        code = str(err.get("code", "internal_error"))
        cls = _ERRORS.get(code, Error)
        raise cls(code, str(err.get("message", "")), record.get("path"))
    return record


def _options(
    dpi: float,
    page_width: Optional[float],
    fields: bool,
    apply_user_unit: bool,
    dialects: Union[str, Sequence[str]],
    timeout: Optional[float],
    max_file_size: Optional[int],
    data_fields: bool = False,
    type_map: Optional[TypeMap] = None,
    anchors: Anchors = None,
    anchor: Sequence[str] = (),
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> _native.Options:
    rules: Optional[List[str]] = None
    if _flag("data_fields", data_fields) or type_map is not None:
        rules = _type_rules(type_map)
    return _native.Options(
        dpi=_real("dpi", dpi),
        page_width=_optional_real("page_width", page_width),
        fields=_flag("fields", fields),
        apply_user_unit=_flag("apply_user_unit", apply_user_unit),
        dialects=_dialect_list(dialects),
        timeout=None if timeout is None else _seconds("timeout", timeout, none="0: no limit"),
        max_file_size=None if max_file_size is None else _count("max_file_size", max_file_size, 0, "bytes"),
        data_fields=rules,
        anchor_files=_anchor_files(anchors),
        anchor=_anchor_args(anchor),
        **_convert(soffice, convert_timeout, cache_dir),
    )


def _convert(
    soffice: Union[None, str, "os.PathLike[str]"], convert_timeout: float, cache_dir: CacheDir
) -> Dict[str, Any]:
    """The keyword arguments of how templates are converted, as the native side takes them."""
    if isinstance(cache_dir, bool) and cache_dir:
        raise TypeError("cache_dir is a folder, None (the default folder) or False (no cache), not True")
    return {
        "soffice": None if soffice is None else os.fsdecode(os.fspath(soffice)),
        "convert_timeout": _seconds("convert_timeout", convert_timeout, none=""),
        "cache_dir": None if cache_dir is None or cache_dir is False else os.fsdecode(os.fspath(cache_dir)),
        "no_cache": cache_dir is False,
    }


def _anchor_files(anchors: Anchors) -> Optional[List[Tuple[str, bytes]]]:
    """DocuSign anchor files as (path, bytes), read here (``--anchors``)."""
    if anchors is None:
        return None
    if isinstance(anchors, (str, os.PathLike)):
        anchors = [anchors]
    names = [os.fsdecode(os.fspath(a)) for a in anchors]
    return [(n, _read(n)) for n in names] or None


def _anchor_args(anchor: Sequence[str]) -> Optional[List[str]]:
    """``STRING=TYPE[:SIGNER]`` tabs (``--anchor``)."""
    if isinstance(anchor, str):
        anchor = [anchor]
    return [str(a) for a in anchor] or None


def _type_rules(type_map: Optional[TypeMap]) -> List[str]:
    """``NAME_OR_GLOB=TYPE`` rules, as ``scan --type-map`` takes them."""
    if type_map is None:
        return []
    if isinstance(type_map, str):
        raise TypeError("type_map is a mapping or a list of NAME_OR_GLOB=TYPE strings, not a str")
    if isinstance(type_map, Mapping):
        return [f"{name}={'none' if kind is None else kind}" for name, kind in type_map.items()]
    return [str(rule) for rule in type_map]


def _resolve(source: Source, name: Optional[str]) -> Tuple[Optional[str], Optional[bytes], str]:
    """``(path, None, shown)`` for a path, ``(None, data, shown)`` for bytes or a file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return None, bytes(source), name if name is not None else "-"
    if isinstance(source, (str, os.PathLike)):
        path = os.fsdecode(os.fspath(source))
        return path, None, name if name is not None else path
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("a file object given to signprep must be opened in binary mode ('rb')")
        shown = name
        if shown is None:
            file_name = getattr(source, "name", None)
            shown = file_name if isinstance(file_name, str) else "-"
        return None, bytes(data), shown
    raise TypeError(
        "expected a path (str or os.PathLike), bytes, or a binary file object, "
        f"not {type(source).__name__}"
    )


def scan(
    source: Source,
    *,
    dpi: float = 72,
    page_width: Optional[float] = None,
    fields: bool = True,
    apply_user_unit: bool = True,
    dialects: Union[str, Sequence[str]] = (),
    timeout: Optional[float] = 60,
    max_file_size: Optional[int] = None,
    data_fields: bool = False,
    type_map: Optional[TypeMap] = None,
    anchors: Anchors = None,
    anchor: Sequence[str] = (),
    name: Optional[str] = None,
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> Record:
    """Scans one PDF (or template): its record, as one ``signprep scan --format ndjson`` line.

    ``source`` is a path, the PDF's bytes, or a binary file object. ``dpi``,
    ``page_width``, ``fields`` (False: tags only, as ``--no-fields``),
    ``apply_user_unit`` (False: ``--ignore-user-unit``) and ``dialects``
    (``"adobe,dropbox"``, ``["signnow"]`` or ``"all"``) are the CLI's options;
    ``timeout`` (seconds, 0 for none) and ``max_file_size`` (bytes) are its
    per-file limits. ``data_fields=True`` adds ``data_fields``, the tags and
    fields as the service's Data field objects (``--data-fields``);
    ``type_map`` (which implies it) overrides their service types
    (``--type-map``, see :data:`TypeMap`). ``anchors`` (a path or several:
    a DocuSign envelope definition, template, or the short TOML form) and
    ``anchor`` (``["/sn1/=signHere:1"]``) add DocuSign anchor tabs to
    ``vendor_tags`` (``--anchors``, ``--anchor``). ``name`` is the record's ``path``
    (default: the path, the file object's ``name``, or ``-`` for bytes).

    A template (``.docx``, ``.odt``: a path by its extension, bytes by their
    content) is converted by LibreOffice and scanned as the PDF it becomes, as
    ``signprep scan`` does: ``soffice`` names LibreOffice's program (default:
    ``$SIGNPREP_SOFFICE``, then ``soffice`` or ``libreoffice`` on ``PATH``),
    ``convert_timeout`` (seconds) bounds one conversion, ``cache_dir`` keeps the
    PDFs converted (see :data:`CacheDir`).

    Raises a :class:`signprep.Error` subclass (``PdfUnreadable``,
    ``PdfEncrypted``, ``LimitExceeded``, ``IoError``, ``InternalError``,
    ``ConvertFailed``) when the file cannot be scanned. The GIL is released
    while the file is read and converted.
    """
    options = _options(
        dpi, page_width, fields, apply_user_unit, dialects, timeout, max_file_size, data_fields, type_map,
        anchors, anchor, soffice, convert_timeout, cache_dir,
    )
    path, data, shown = _resolve(source, name)
    if path is not None:
        record: Record = _native.scan_path(path, shown, options)
    else:
        assert data is not None
        record = _native.scan_bytes(data, shown, options)
    return _raise_for(record)


def scan_many(
    sources: Iterable[Source],
    *,
    jobs: Optional[int] = None,
    dpi: float = 72,
    page_width: Optional[float] = None,
    fields: bool = True,
    apply_user_unit: bool = True,
    dialects: Union[str, Sequence[str]] = (),
    timeout: Optional[float] = 60,
    max_file_size: Optional[int] = None,
    data_fields: bool = False,
    type_map: Optional[TypeMap] = None,
    anchors: Anchors = None,
    anchor: Sequence[str] = (),
    window: Optional[int] = None,
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> Iterator[Record]:
    """Scans many PDFs in parallel: an iterator of records, in input order.

    Runs on the engine under ``signprep scan``: ``jobs`` threads inside
    signprep (default: one per core) with the GIL released, the largest file
    of the window first, the same watchdog. At most ``window`` files (default
    32 per thread, at least 128) are in flight or finished ahead of the one
    yielded next, and ``sources`` is read only that far ahead: it may be a
    generator over millions of paths. A file that cannot be scanned gives its
    error record (``"status": "error"``, ``"error": {"code", "message"}``) in
    its place: no exception for a bad PDF. An exception raised by ``sources``
    itself is raised after the records of the sources before it. Options as
    :func:`scan`; a template that cannot be converted gives its
    ``convert_failed`` record. When ``sources`` is a list or a tuple, its
    templates are converted before the first record, several per LibreOffice
    process, into the conversion cache (not with ``cache_dir=False``).
    """
    options = _options(
        dpi, page_width, fields, apply_user_unit, dialects, timeout, max_file_size, data_fields, type_map,
        anchors, anchor, soffice, convert_timeout, cache_dir,
    )
    if jobs is not None:
        jobs = _count("jobs", jobs, 1, "threads", _native.MAX_JOBS)
    if window is not None:
        window = _count("window", window, 1, "files")

    if isinstance(sources, (list, tuple)):
        # A list known up front: its templates are converted ahead, several per
        # LibreOffice process (as `signprep scan` does for a folder or a list).
        paths = [os.fsdecode(os.fspath(s)) for s in sources if isinstance(s, (str, os.PathLike))]
        if any(os.path.splitext(p)[1].lower() in (".docx", ".odt") for p in paths):
            _native.prepare_templates(paths, options)

    def inputs() -> Iterator[Tuple[Optional[str], Optional[bytes], str]]:
        for s in sources:
            yield _resolve(s, None)

    return _native.Batch(inputs(), options, jobs or 0, window)


def check(
    source: Source,
    *,
    kind: Optional[str] = None,
    max_payload: int = 10 * 1024 * 1024,
    templates: Sequence[Union[str, Record]] = (),
    name: Optional[str] = None,
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> Record:
    """Pre-flight: every rule over a PDF, a template, a request body or a manifest.

    Returns ``{"path", "kind", "findings": [{"severity", "code", "message",
    "pointer", "file", "page", "tag", "field", "hint"}...]}`` as ``signprep
    check --format ndjson`` (absent keys left out). ``kind`` is one of
    ``pdf``, ``pack``, ``v0``, ``populate``, ``requests``, ``webhook``,
    ``subscription``, ``manifest`` (default: detected); a dict is checked as
    its JSON. ``templates`` are template documents (JSON text or dicts) that
    populate keys are checked against. A manifest's relative paths are read
    from its folder (from the current folder for bytes or a dict).

    A template (``.docx``, ``.odt``: a path by its extension, bytes by their
    content) is converted (``soffice``, ``convert_timeout``, ``cache_dir`` as
    :func:`scan`) and checked as the PDF it becomes, as ``signprep check``
    does: the template's own findings (``template_*``) first, and a finding
    about a tag carries its ``source``, where the tag stands in the template.

    Raises :class:`KindUnknown` when the kind cannot be told, :class:`IoError`
    when the file cannot be read, :class:`ConvertFailed` when a template cannot
    be converted.
    """
    template: Optional[str] = None
    if isinstance(source, dict):
        data: bytes = json.dumps(source).encode()
        path = name or "-"
    else:
        file_path, raw, path = _resolve(source, name)
        if file_path is not None:
            raw = _read(file_path)
        assert raw is not None
        data = raw
        if file_path is not None:
            path = file_path if name is None else name
            # A file is a template by its extension, as `signprep check` tells it.
            ext = os.path.splitext(file_path)[1].lower()
            template = ext[1:] if ext in (".docx", ".odt") else None
        else:
            template = "sniff"
    texts = [t if isinstance(t, str) else json.dumps(t) for t in templates]
    max_payload = _count("max_payload", max_payload, 1, "bytes")
    record: Record = _native.check_bytes(
        data, path, kind, max_payload, texts, template, **_convert(soffice, convert_timeout, cache_dir)
    )
    if record.get("error"):
        err = record["error"]
        raise ConvertFailed(str(err.get("code", "convert_failed")), str(err.get("message", "")), path)
    findings = record["findings"]
    if record["kind"] is None and all(f.get("code") == "kind_unknown" for f in findings):
        # Nothing was checked (`signprep check` alone on such a file: "nothing
        # to check"); the finding says why, naming ``kind=`` (the checker writes
        # its hints in the Python package's words).
        why = findings[0]["message"] if findings else "cannot tell what this is"
        raise KindUnknown("kind_unknown", why, path)
    return record


def pack(
    manifest: Union[str, "os.PathLike[str]", Record],
    *,
    base_dir: Union[str, "os.PathLike[str]", None] = None,
    seed: Optional[int] = None,
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> Record:
    """The v1 pack request body of a manifest (TOML or JSON file, or a dict).

    The manifest is checked by the rules :func:`check` runs; an error-level
    finding raises :class:`PackError` with every finding. ``base_dir`` is where
    a dict manifest's relative paths start (default: the current folder);
    ``seed`` makes the signers' UUIDs reproducible.

    A child whose ``path`` is a template (``.docx``, ``.odt``) is converted by
    LibreOffice (``soffice``, ``convert_timeout``, ``cache_dir`` as
    :func:`scan`) and packed as the PDF it becomes, as ``signprep pack`` does;
    its findings carry their ``source`` in the template. A manifest naming a
    template where LibreOffice cannot be had raises :class:`ConvertFailed`
    (``signprep pack`` stops there too); a template LibreOffice refuses is that
    child's ``convert_failed`` finding (:class:`PackError`).
    """
    if isinstance(manifest, dict):
        data = json.dumps(manifest).encode()
        folder = os.fspath(base_dir) if base_dir is not None else os.getcwd()
        path = os.path.join(folder, "manifest.json")
    else:
        path = os.fsdecode(os.fspath(manifest))
        data = _read(path)
    body, findings, convert_failed = _native.pack_manifest(
        data, path, seed, **_convert(soffice, convert_timeout, cache_dir)
    )
    if convert_failed is not None:
        raise ConvertFailed("convert_failed", convert_failed, path)
    if body is None:
        errors = [f for f in findings if f.get("severity") == "error"]
        first = errors[0] if errors else {"code": "internal_error", "message": "nothing built"}
        raise PackError(
            str(first["code"]),
            f"{len(errors)} error-level finding(s); the first: {first['message']}",
            findings,
            path,
        )
    result: Record = body
    return result


def migrate(
    source: Source,
    *,
    signers: Optional[Mapping[str, str]] = None,
    signers_file: Union[str, "os.PathLike[str]", None] = None,
    dialects: Union[str, Sequence[str]] = "all",
    map_type: Optional[Mapping[str, Optional[str]]] = None,
    template: bool = False,
    dpi: float = 72,
    page_width: Optional[float] = None,
    apply_user_unit: bool = True,
    anchors: Anchors = None,
    anchor: Sequence[str] = (),
    name: Optional[str] = None,
    strip: bool = False,
    soffice: Union[None, str, "os.PathLike[str]"] = None,
    convert_timeout: float = 120,
    cache_dir: CacheDir = None,
) -> Record:
    """Migrates a PDF (or template) tagged for another vendor, as ``signprep migrate``.

    Reads the text tags of ``dialects`` (``"all"``, or ``"adobe,dropbox"``,
    ``["signnow"]``...) and returns ``{"request", "findings", "summary"}``:
    ``request`` is the v0 request (``POST /v0/documents`` with ``data_fields``
    at explicit ``x``/``y``/``width``/``height``, and the PDF to upload),
    ``findings`` what the migration reports (unmapped types, defaulted signers,
    visible vendor tags...), ``summary`` the counts (``tags``, ``placed``,
    ``left_out``, ``signers``, ``signers_without_email``).

    ``signers`` maps a vendor signer or role to who signs for them
    (``{"signer1": "client@example.com", "Witness": "Wendy Ward
    <wendy@example.com>"}``; a value with a space and no ``<`` is a name with
    no address, any other value an address); ``signers_file`` is a pack
    manifest whose ``[[signers]]`` have a ``handle``. ``map_type`` maps a
    vendor kind to a service type (``{"initials": "initials"}``) or leaves it
    out (``None``). The request's ``upload`` is the PDF's absolute path (the
    request is not written anywhere yet; ``None`` for bytes).
    ``anchors`` and ``anchor`` add DocuSign anchor tabs (as :func:`scan`);
    the file's recipients are signers (``recipientId`` ``1`` is ``signer1``,
    with its email), ``signers`` win over them. ``strip=True`` makes a copy
    without the vendor tags' text to upload instead (``--strip``).

    The result's ``pdf`` is the bytes the request uploads when they are not
    the file given (the request then has no ``upload``: write them where
    you keep them and upload that): the stripped copy, or for a
    template (``.docx``, ``.odt``: a path by its extension, bytes by their
    content) the PDF LibreOffice makes of it (``soffice``,
    ``convert_timeout``, ``cache_dir`` as :func:`scan`), stripped with
    ``strip=True``; else ``None``. A template is migrated as ``signprep
    migrate`` migrates it: its findings carry their ``source``, where the
    tag stands in the template.

    Raises :class:`PackError` (with every finding) when an error-level
    finding stops the file: a PDF that cannot be read (the code ``scan``
    gives it: ``pdf_unreadable``, ``pdf_encrypted``, ``pdf_limit_exceeded``,
    ``io_error``), a signer's address that is not valid (``email_invalid``,
    the rule :func:`check` applies), a signer the PDF does not have
    (``migrate_signer_unknown``, with the closest one as hint);
    :class:`IoError` when ``source`` or ``signers_file`` cannot be read;
    :class:`ConvertFailed` when a template cannot be converted (LibreOffice
    missing, the time limit, a file it refuses).
    """
    signers_data: Optional[Tuple[str, bytes]] = None
    if signers_file is not None:
        file_name = os.fsdecode(os.fspath(signers_file))
        signers_data = (file_name, _read(file_name))
    options = _native.MigrateOptions(
        signers=[f"{k}={v}" for k, v in (signers or {}).items()],
        signers_file=signers_data,
        dialects=_dialect_list(dialects),
        map_type=[f"{k}={'none' if v is None else v}" for k, v in (map_type or {}).items()],
        template=_flag("template", template),
        dpi=_real("dpi", dpi),
        page_width=_optional_real("page_width", page_width),
        apply_user_unit=_flag("apply_user_unit", apply_user_unit),
        anchor_files=_anchor_files(anchors),
        anchor=_anchor_args(anchor),
        strip=_flag("strip", strip),
    )
    path, data, shown = _resolve(source, name)
    form: Optional[str] = "sniff"
    if path is not None:
        data = _read(path)
        # A file is a template by its extension, as `signprep migrate` tells it.
        ext = os.path.splitext(path)[1].lower()
        form = ext[1:] if ext in (".docx", ".odt") else None
    assert data is not None
    stem = os.path.splitext(os.path.basename(shown))[0] if shown != "-" else ""
    result: Record = _native.migrate_bytes(
        data, path, stem or "document", options, form, **_convert(soffice, convert_timeout, cache_dir)
    )
    if "error" in result:
        err = result["error"]
        code = str(err.get("code", "convert_failed"))
        raise _ERRORS.get(code, Error)(code, str(err.get("message", "")), shown)
    if result["request"] is None:
        errors = [f for f in result["findings"] if f.get("severity") == "error"]
        first = errors[0] if errors else {"code": "internal_error", "message": "nothing built"}
        raise PackError(
            str(first["code"]),
            f"{len(errors)} error-level finding(s); the first: {first['message']}",
            result["findings"],
            shown,
        )
    return result


def _read(path: str) -> bytes:
    """The bytes of ``path``, or :class:`IoError` naming it."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        err = IoError("io_error", f"cannot read: {e.strerror or e}", path)
        err.errno = e.errno
        raise err from e


def explain(code: str) -> Record:
    """What a code means: ``{"code", "severity", "doc"}`` (``doc`` is Markdown).

    Raises ``KeyError`` for an unknown code; :func:`codes` lists them all.
    """
    found: Optional[Record] = _native.explain(code)
    if found is None:
        raise KeyError(code)
    return found


def codes() -> List[str]:
    """Every documented code: pack and check rules, scan findings, error records."""
    return list(_native.codes())
