#!/usr/bin/env python3
"""Generate the font tables of signprep-core from published data.

Writes crates/signprep-core/src/fonts/generated/{standard14,encodings,glyphlist,mod}.rs.
See README.md beside this file for the sources, their licences and how to run it.

    python3 tools/gen_tables/gen_tables.py          # (re)write the .rs files
    python3 tools/gen_tables/gen_tables.py --check  # exit 1 if the files are not up to date

The script only reads installed packages (pinned in requirements.txt); it installs nothing
and needs no network. It refuses to run with other package versions than the pinned ones
unless --allow-other-versions is given, so that the output is reproducible.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata as md
import sys
from pathlib import Path

PINNED = {
    "pdfminer.six": "20260107",
    "matplotlib": "3.11.2",
    "pypdf": "7.1.0",
    "reportlab": "5.1.0",
}

REPO = Path(__file__).resolve().parents[2]
OUT_DIR = REPO / "crates" / "signprep-core" / "src" / "fonts" / "generated"

# The 14 standard fonts, in pdfminer's FONT_METRICS order (alphabetical).
STD14 = [
    "Courier",
    "Courier-Bold",
    "Courier-BoldOblique",
    "Courier-Oblique",
    "Helvetica",
    "Helvetica-Bold",
    "Helvetica-BoldOblique",
    "Helvetica-Oblique",
    "Symbol",
    "Times-Bold",
    "Times-BoldItalic",
    "Times-Italic",
    "Times-Roman",
    "ZapfDingbats",
]
SYMBOLIC = {"Symbol", "ZapfDingbats"}


class GenError(Exception):
    pass


def versions() -> dict[str, str]:
    return {name: md.version(name) for name in PINNED}


def source_line(names: list[str], vers: dict[str, str]) -> str:
    return ", ".join(f"{n} {vers[n]}" for n in names)


# ---------------------------------------------------------------------------------------------
# Reading the sources


def read_afm(font: str) -> tuple[dict[str, str], list[tuple[int, str, int]]]:
    """(header keys, [(code, glyph name, width)]) of matplotlib's copy of Adobe's AFM file."""
    dist = md.distribution("matplotlib")
    path = Path(str(dist.locate_file(f"matplotlib/mpl-data/fonts/pdfcorefonts/{font}.afm")))
    header: dict[str, str] = {}
    glyphs: list[tuple[int, str, int]] = []
    in_metrics = False
    for raw in path.read_text(encoding="latin-1").splitlines():
        line = raw.strip()
        if line.startswith("StartCharMetrics"):
            in_metrics = True
            continue
        if line.startswith("EndCharMetrics"):
            in_metrics = False
            continue
        if in_metrics:
            fields: dict[str, list[str]] = {}
            for part in line.split(";"):
                tok = part.split()
                if tok:
                    fields[tok[0]] = tok[1:]
            glyphs.append((int(fields["C"][0]), fields["N"][0], int(fields["WX"][0])))
        else:
            kv = line.split(None, 1)
            if len(kv) == 2:
                header.setdefault(kv[0], kv[1])
    if not glyphs:
        raise GenError(f"no glyphs in {path}")
    return header, glyphs


def pdfminer_encodings() -> dict[str, list[str | None]]:
    """pdfminer's latin_enc.ENCODING, rows applied in order (a later row wins, as in
    pdfminer.encodingdb.EncodingDB)."""
    from pdfminer.latin_enc import ENCODING

    tables: dict[str, list[str | None]] = {k: [None] * 256 for k in ("std", "mac", "win", "pdf")}
    for name, *codes in ENCODING:
        for key, code in zip(("std", "mac", "win", "pdf"), codes):
            if code is not None:
                tables[key][code] = name
    return tables


def zapf_unicode_by_code() -> list[str]:
    """pypdf's ZapfDingbats code -> Unicode table (built from ZapfDingbats.afm and the AGL's
    zapfdingbats.txt). Parsed with ast, not imported."""
    dist = md.distribution("pypdf")
    path = Path(str(dist.locate_file("pypdf/_codecs/zapfding.py")))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_zapfding_encoding" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            if len(value) != 256:
                raise GenError("pypdf _zapfding_encoding has not 256 entries")
            return list(value)
    raise GenError("_zapfding_encoding not found in pypdf")


# ---------------------------------------------------------------------------------------------
# Rust emitters


def rs_str(s: str) -> str:
    """A Rust string literal; printable ASCII stays literal, anything else is \\u{..}."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\u{{{o:04X}}}")
    return '"' + "".join(out) + '"'


def rs_f32(v: float) -> str:
    r = repr(float(v))
    return r if ("." in r or "e" in r) else r + ".0"


def header(sources: str, licence: str) -> str:
    return (
        f"// @generated by tools/gen_tables/gen_tables.py from {sources};\n"
        f"// licence: {licence}; do not edit."
    )


def emit_encoding(name: str, doc: str, table: list[str | None], allow_dead: bool) -> str:
    lines = [f"/// {d}" if d else "///" for d in doc.split("\n")]
    if allow_dead:
        lines.append("#[allow(dead_code)]")
    lines.append(f"pub(crate) static {name}: [Option<&str>; 256] = [")
    for code, glyph in enumerate(table):
        val = "None" if glyph is None else f"Some({rs_str(glyph)})"
        lines.append(f"    {val}, // 0x{code:02X}")
    lines.append("];")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Table construction with cross-checks


def build_encodings(zapf_afm, symbol_afm) -> tuple[dict[str, list[str | None]], list[str]]:
    from reportlab.pdfbase import _fontdata_enc_macexpert as rl_macexpert
    from reportlab.pdfbase import _fontdata_enc_symbol as rl_symbol
    from reportlab.pdfbase import _fontdata_enc_winansi as rl_winansi
    from reportlab.pdfbase import _fontdata_enc_zapfdingbats as rl_zapf

    notes: list[str] = []
    pm = pdfminer_encodings()
    win = list(pm["win"])
    # PDF 32000-1:2008 Annex D.2, footnotes of Table D.2:
    # - "space" is also encoded as 0240 (0xA0) in WinAnsiEncoding: pdfminer has it already.
    if win[0xA0] != "space":
        raise GenError(f"pdfminer WinAnsi 0xA0 is {win[0xA0]!r}, expected 'space'")
    # - "hyphen" is also encoded as 0255 (0xAD) in WinAnsiEncoding; pdfminer's latin_enc has a
    #   row ("space", None, 202, 173, None) that puts "space" there instead.
    if win[0xAD] != "space":
        raise GenError(f"pdfminer WinAnsi 0xAD is {win[0xAD]!r}; revisit the 0xAD fix-up")
    win[0xAD] = "hyphen"
    notes.append("WinAnsi 0xAD: 'hyphen' (Annex D footnote); pdfminer has 'space'")
    # - all unused WinAnsi codes above 040 (octal) map to "bullet".
    bullets = [c for c in range(0x21, 0x100) if win[c] is None]
    if bullets != [0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D]:
        raise GenError(f"unexpected unused WinAnsi codes {bullets}")
    for c in bullets:
        win[c] = "bullet"
    notes.append(
        "WinAnsi 0x7F 0x81 0x8D 0x8F 0x90 0x9D: 'bullet' (Annex D footnote); pdfminer: unmapped"
    )
    if tuple(win) != tuple(rl_winansi.WinAnsiEncoding):
        raise GenError("WinAnsiEncoding differs from reportlab's")

    std = pm["std"]
    # The 12 text fonts' AFM files are in AdobeStandardEncoding: it must agree with pdfminer.
    for font in STD14:
        if font in SYMBOLIC:
            continue
        afm_enc: list[str | None] = [None] * 256
        for code, glyph, _ in read_afm(font)[1]:
            if code >= 0:
                afm_enc[code] = glyph
        if afm_enc != std:
            raise GenError(f"{font}.afm encoding differs from pdfminer's StandardEncoding")

    def builtin(afm) -> list[str | None]:
        enc: list[str | None] = [None] * 256
        for code, glyph, _ in afm[1]:
            if 0 <= code <= 255:
                enc[code] = glyph
        return enc

    symbol = builtin(symbol_afm)
    zapf = builtin(zapf_afm)
    if tuple(symbol) != tuple(rl_symbol.SymbolEncoding):
        raise GenError("Symbol.afm encoding differs from reportlab's SymbolEncoding")
    if tuple(zapf) != tuple(rl_zapf.ZapfDingbatsEncoding):
        raise GenError("ZapfDingbats.afm encoding differs from reportlab's")
    macexpert = list(rl_macexpert.MacExpertEncoding)
    if len(macexpert) != 256:
        raise GenError("reportlab MacExpertEncoding has not 256 entries")
    return (
        {
            "std": std,
            "win": win,
            "mac": pm["mac"],
            "pdf": pm["pdf"],
            "macexpert": macexpert,
            "symbol": symbol,
            "zapf": zapf,
        },
        notes,
    )


def build_standard14():
    """[(font, props, widths sorted by glyph name)], plus notes."""
    from pdfminer.encodingdb import name2unicode
    from pdfminer.fontmetrics import FONT_METRICS

    notes: list[str] = []
    fonts = []
    euro: dict[str, int] = {}
    for font in STD14:
        props, pm_widths = FONT_METRICS[font]
        afm_header, afm_glyphs = read_afm(font)
        widths: dict[str, int] = {}
        accounted: set[str] = set()
        for _code, glyph, wx in afm_glyphs:
            if font == "ZapfDingbats" and glyph != "space":
                # pdfminer keys ZapfDingbats widths by chr(N) for glyph aN (its converter could
                # not map the a-names); check the AFM width against that key.
                key = chr(int(glyph[1:]))
            else:
                key = name2unicode(glyph)
            if key in pm_widths:
                accounted.add(key)
                if pm_widths[key] != wx and not (font == "ZapfDingbats" and glyph == "space"):
                    raise GenError(f"{font} {glyph}: AFM {wx} != pdfminer {pm_widths[key]}")
            if key not in pm_widths and font != "ZapfDingbats":
                # Not in pdfminer (only 'Euro' of the 12 text fonts): pdfminer gives width 0
                # (MissingWidth absent). Left out so that width() agrees with pdfminer.
                if glyph != "Euro":
                    raise GenError(f"{font} {glyph}: missing in pdfminer")
                euro[font] = wx
                continue
            widths[glyph] = wx
        extra = set(pm_widths) - accounted
        if extra:
            raise GenError(f"{font}: pdfminer widths not in the AFM: {sorted(extra)!r}")
        if font == "ZapfDingbats":
            notes.append(
                "ZapfDingbats: widths by glyph name from the AFM; pdfminer's table keys them by "
                "chr(N) for aN (same numbers) and its ' ' key holds a32's 790, not space's 278"
            )
        names = sorted(widths)
        if any(not n.isascii() for n in names):
            raise GenError(f"{font}: non-ASCII glyph name")
        if any(not 0 <= widths[n] <= 0xFFFF for n in names):
            raise GenError(f"{font}: width out of u16 range")
        ascent = float(props.get("Ascent", 0))
        descent = float(props.get("Descent", 0))
        if descent > 0:  # pdfminer.pdffont.PDFFont forces the descent negative
            descent = -descent
        fixed = afm_header.get("IsFixedPitch", "false").lower() == "true"
        if fixed != (props.get("Flags", 0) == 64):
            raise GenError(f"{font}: IsFixedPitch disagrees with pdfminer Flags")
        fonts.append(
            {
                "name": font,
                "ascent": ascent,
                "descent": descent,
                "fixed_pitch": fixed,
                "symbolic": font in SYMBOLIC,
                "widths": [(n, widths[n]) for n in names],
                "afm_ascender": afm_header.get("Ascender"),
                "afm_descender": afm_header.get("Descender"),
            }
        )
    if euro:
        by_width: dict[int, list[str]] = {}
        for font, wx in euro.items():
            by_width.setdefault(wx, []).append(font)
        detail = "; ".join(f"{w} in {', '.join(f)}" for w, f in sorted(by_width.items()))
        notes.append(
            "'Euro' is left out of the 12 text fonts, as in pdfminer (which then uses width 0); "
            f"the Adobe AFM widths are {detail}"
        )
    aliases = []
    for key, value in FONT_METRICS.items():
        target = value[0]["FontName"]
        if target not in STD14:
            raise GenError(f"pdfminer alias {key} -> unknown {target}")
        aliases.append((key, STD14.index(target)))
    aliases.sort()
    return fonts, aliases, notes


def build_glyphlists(zapf_afm):
    from pdfminer.glyphlist import glyphname2unicode

    agl = sorted(glyphname2unicode.items())
    if any(not n.isascii() for n, _ in agl):
        raise GenError("non-ASCII AGL name")
    zapf_uni = zapf_unicode_by_code()
    zapf_list = []
    for code, glyph, _ in zapf_afm[1]:
        if glyph == "space":
            continue
        if not (glyph.startswith("a") and glyph[1:].isdigit()):
            raise GenError(f"unexpected ZapfDingbats glyph {glyph}")
        if glyph in glyphname2unicode:
            raise GenError(f"ZapfDingbats glyph {glyph} is also in the AGL")
        u = zapf_uni[code]
        if len(u) != 1 or ord(u) < 0x2000:
            raise GenError(f"no Unicode for ZapfDingbats {glyph} (code {code})")
        zapf_list.append((glyph, u))
    zapf_list.sort()
    return agl, zapf_list


# ---------------------------------------------------------------------------------------------
# Files


def gen_encodings(enc, notes, vers) -> str:
    src = source_line(["pdfminer.six", "reportlab", "matplotlib"], vers)
    out = [
        header(
            f"{src} (pdfminer/latin_enc.py; reportlab/pdfbase/_fontdata_enc_macexpert.py; "
            "matplotlib/mpl-data/fonts/pdfcorefonts/{Symbol,ZapfDingbats}.afm)",
            "pdfminer.six MIT, reportlab BSD-3-Clause, Adobe Core 14 AFM licence "
            "(tools/gen_tables/README.md)",
        ),
        "",
        "//! Simple-font encodings: code -> glyph name (PDF 32000-1:2008 Annex D).",
        "",
        emit_encoding(
            "STANDARD_ENCODING",
            "StandardEncoding (Adobe standard Latin), as in pdfminer.six.",
            enc["std"],
            False,
        ),
        emit_encoding(
            "WIN_ANSI_ENCODING",
            "WinAnsiEncoding: pdfminer.six's table plus the Annex D footnotes: 0xA0 is \"space\",\n"
            "0xAD is \"hyphen\" (pdfminer.six 20260107 has \"space\" there) and the unused codes\n"
            "0x7F 0x81 0x8D 0x8F 0x90 0x9D are \"bullet\" (pdfminer.six leaves them unmapped).\n"
            "Identical to reportlab's WinAnsiEncoding.",
            enc["win"],
            False,
        ),
        emit_encoding(
            "MAC_ROMAN_ENCODING",
            "MacRomanEncoding as in pdfminer.six / Annex D (0xCA is \"space\"; the 15 Mac OS Roman\n"
            "characters outside the standard Latin set, e.g. 0xAD notequal, are not mapped).",
            enc["mac"],
            False,
        ),
        emit_encoding(
            "MAC_EXPERT_ENCODING",
            "MacExpertEncoding, from reportlab (pdfminer.six has none and falls back to\n"
            "StandardEncoding for it).",
            enc["macexpert"],
            True,
        ),
        emit_encoding(
            "PDF_DOC_ENCODING",
            "PDFDocEncoding glyph names, as in pdfminer.six / Annex D (0x00-0x17 unmapped).",
            enc["pdf"],
            True,
        ),
        emit_encoding(
            "SYMBOL_ENCODING",
            "Built-in encoding of the Symbol font (Adobe Symbol.afm).",
            enc["symbol"],
            False,
        ),
        emit_encoding(
            "ZAPF_DINGBATS_ENCODING",
            "Built-in encoding of the ZapfDingbats font (Adobe ZapfDingbats.afm).",
            enc["zapf"],
            False,
        ),
    ]
    return "\n".join(out)


def gen_standard14(fonts, aliases, notes, vers) -> str:
    src = source_line(["pdfminer.six", "matplotlib"], vers)
    out = [
        header(
            f"{src} (pdfminer/fontmetrics.py: ascent, descent, widths; "
            "matplotlib/mpl-data/fonts/pdfcorefonts/*.afm: glyph names, cross-checked)",
            "Adobe Core 14 AFM licence (redistribution permitted, see tools/gen_tables/README.md), "
            "pdfminer.six MIT",
        ),
        "",
        "//! Metrics of the standard 14 fonts, exactly as pdfminer.six uses them.",
        "//!",
        "//! Notes from the generator:",
    ]
    for n in notes:
        out.append(f"//! - {n}")
    for f in fonts:
        if f["afm_descender"] is not None and float(f["afm_descender"]) != f["descent"]:
            out.append(
                f"//! - {f['name']}: ascent/descent {rs_f32(f['ascent'])}/{rs_f32(f['descent'])} "
                f"from pdfminer (the Adobe AFM says {f['afm_ascender']}/{f['afm_descender']})"
            )
    out.append(
        "//! - Symbol, ZapfDingbats: ascent = descent = 0, because pdfminer has no Ascent/Descent "
        "for them."
    )
    out += [
        "",
        "use super::encodings::{STANDARD_ENCODING, SYMBOL_ENCODING, ZAPF_DINGBATS_ENCODING};",
        "",
        "// The name lookups (aliases, subset prefix) and `Standard14::width` are hand-written in",
        "// fonts/glyphs.rs; re-exported here so that callers find them next to the data.",
        "#[allow(unused_imports)]",
        "pub(crate) use super::super::glyphs::{standard14, standard14_pdfminer};",
        "",
        "/// Metrics of one of the standard 14 fonts (font units, 1/1000 em).",
        "#[derive(Debug)]",
        "#[allow(dead_code)]",
        "pub(crate) struct Standard14 {",
        "    /// PostScript name, e.g. \"Helvetica-Bold\".",
        "    pub(crate) name: &'static str,",
        "    /// pdfminer's ascent (0 for Symbol and ZapfDingbats).",
        "    pub(crate) ascent: f32,",
        "    /// pdfminer's descent, <= 0 (0 for Symbol and ZapfDingbats).",
        "    pub(crate) descent: f32,",
        "    pub(crate) fixed_pitch: bool,",
        "    /// Symbol and ZapfDingbats.",
        "    pub(crate) symbolic: bool,",
        "    /// (glyph name, advance width), sorted by glyph name (byte order) for binary search.",
        "    pub(crate) widths: &'static [(&'static str, u16)],",
        "    /// Code -> glyph name: StandardEncoding for the 12 text fonts, the font's own",
        "    /// encoding for Symbol and ZapfDingbats.",
        "    pub(crate) builtin_encoding: &'static [Option<&'static str>; 256],",
        "}",
        "",
    ]
    # Identical width tables are shared.
    table_names: dict[tuple, str] = {}
    font_table: dict[str, str] = {}
    for f in fonts:
        key = tuple(f["widths"])
        if key not in table_names:
            ident = f["name"].upper().replace("-", "_") + "_WIDTHS"
            table_names[key] = ident
            users = [g["name"] for g in fonts if tuple(g["widths"]) == key]
            out.append(f"/// Widths of {', '.join(users)}.")
            out.append(f"static {ident}: [(&str, u16); {len(key)}] = [")
            for glyph, w in key:
                out.append(f"    ({rs_str(glyph)}, {w}),")
            out.append("];")
            out.append("")
        font_table[f["name"]] = table_names[key]
    out.append("/// The standard 14 fonts, sorted by name.")
    out.append("pub(crate) static STANDARD14: [Standard14; 14] = [")
    for f in fonts:
        enc = {"Symbol": "SYMBOL_ENCODING", "ZapfDingbats": "ZAPF_DINGBATS_ENCODING"}.get(
            f["name"], "STANDARD_ENCODING"
        )
        out += [
            "    Standard14 {",
            f"        name: {rs_str(f['name'])},",
            f"        ascent: {rs_f32(f['ascent'])},",
            f"        descent: {rs_f32(f['descent'])},",
            f"        fixed_pitch: {str(f['fixed_pitch']).lower()},",
            f"        symbolic: {str(f['symbolic']).lower()},",
            f"        widths: &{font_table[f['name']]},",
            f"        builtin_encoding: &{enc},",
            "    },",
        ]
    out.append("];")
    out.append("")
    out.append("/// The BaseFont names for which pdfminer.six uses these metrics (its FONT_METRICS keys,")
    out.append("/// matched exactly, no subset prefix) -> index into [`STANDARD14`]. For these pdfminer")
    out.append("/// ignores the PDF's own /Widths and /FontDescriptor. Sorted by name.")
    out.append("#[allow(dead_code)]")
    out.append(f"pub(crate) static PDFMINER_METRICS_NAMES: [(&str, usize); {len(aliases)}] = [")
    for key, idx in aliases:
        out.append(f"    ({rs_str(key)}, {idx}),")
    out.append("];")
    return "\n".join(out) + "\n"


def gen_glyphlist(agl, zapf, vers) -> str:
    out = [
        header(
            f"{source_line(['pdfminer.six', 'pypdf', 'matplotlib'], vers)} (pdfminer/glyphlist.py: "
            "Adobe Glyph List 2.0; ZapfDingbats names from ZapfDingbats.afm + "
            "pypdf/_codecs/zapfding.py, i.e. the AGL's zapfdingbats.txt)",
            "Adobe Glyph List BSD-3-Clause (Copyright 2002-2019 Adobe), pdfminer.six MIT, "
            "pypdf BSD-3-Clause",
        ),
        "",
        "//! Glyph name -> Unicode tables.",
        "",
        "/// Adobe Glyph List 2.0 (glyphlist.txt): glyph name -> Unicode string (some names map to",
        "/// a sequence of code points). Sorted by name (byte order) for binary search.",
        f"pub(crate) static GLYPH_LIST: [(&str, &str); {len(agl)}] = [",
    ]
    for name, uni in agl:
        out.append(f"    ({rs_str(name)}, {rs_str(uni)}),")
    out += [
        "];",
        "",
        "/// ZapfDingbats glyph names (a1 .. a206, zapfdingbats.txt) -> Unicode. Only for the",
        "/// ZapfDingbats font. Sorted by name (byte order) for binary search.",
        f"pub(crate) static ZAPF_DINGBATS_GLYPH_LIST: [(&str, &str); {len(zapf)}] = [",
    ]
    for name, uni in zapf:
        out.append(f"    ({rs_str(name)}, {rs_str(uni)}),")
    out.append("];")
    return "\n".join(out) + "\n"


def gen_mod(vers) -> str:
    return (
        header(source_line(list(PINNED), vers), "see tools/gen_tables/README.md")
        + "\n\n"
        + "//! Tables generated from published data by tools/gen_tables/gen_tables.py.\n"
        + "\n"
        + "#[rustfmt::skip]\n"
        + "pub(crate) mod encodings;\n"
        + "#[rustfmt::skip]\n"
        + "pub(crate) mod glyphlist;\n"
        + "#[rustfmt::skip]\n"
        + "pub(crate) mod standard14;\n"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--allow-other-versions", action="store_true")
    args = ap.parse_args()

    try:
        vers = versions()
    except md.PackageNotFoundError as e:
        print(f"missing package {e}; see tools/gen_tables/README.md", file=sys.stderr)
        return 2
    wrong = {k: v for k, v in vers.items() if v != PINNED[k]}
    if wrong and not args.allow_other_versions:
        print(f"package versions differ from the pins {PINNED}: {wrong}", file=sys.stderr)
        return 2

    try:
        symbol_afm = read_afm("Symbol")
        zapf_afm = read_afm("ZapfDingbats")
        enc, enc_notes = build_encodings(zapf_afm, symbol_afm)
        fonts, aliases, s14_notes = build_standard14()
        agl, zapf_list = build_glyphlists(zapf_afm)
    except GenError as e:
        print(f"cross-check failed: {e}", file=sys.stderr)
        return 1

    files = {
        "encodings.rs": gen_encodings(enc, enc_notes, vers),
        "standard14.rs": gen_standard14(fonts, aliases, s14_notes, vers),
        "glyphlist.rs": gen_glyphlist(agl, zapf_list, vers),
        "mod.rs": gen_mod(vers),
    }
    stale = []
    for name, text in files.items():
        path = OUT_DIR / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUT_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    if stale:
        print(f"out of date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
