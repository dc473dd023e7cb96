use super::*;
use proptest::prelude::*;

fn ops(data: &[u8]) -> Vec<(String, Vec<String>)> {
    let mut lx = Lexer::new(data);
    let mut o = Operands::default();
    let mut out = Vec::new();
    while let Some(op) = lx.next_op(&mut o) {
        let args = o
            .toks
            .iter()
            .map(|t| match *t {
                Tok::Num(v) => format!("{v}"),
                Tok::Name(a, b) => format!("/{}", String::from_utf8_lossy(lx.slice(a, b))),
                Tok::Str(a, b) => format!(
                    "({})",
                    String::from_utf8_lossy(&o.strings[a as usize..b as usize])
                ),
                Tok::ArrayOpen => "[".into(),
                Tok::ArrayClose => "]".into(),
                Tok::Other => "?".into(),
            })
            .collect();
        out.push((String::from_utf8_lossy(op).into_owned(), args));
    }
    out
}

#[test]
fn operators_and_operands() {
    let got = ops(b"BT /F1 12 Tf 1 0 0 1 72.5 -.5 Tm (a\\(b\\)c\\101) Tj [(x) -120 <4142>] TJ ET");
    assert_eq!(got[0], ("BT".into(), vec![]));
    assert_eq!(got[1], ("Tf".into(), vec!["/F1".into(), "12".into()]));
    assert_eq!(got[2].1, ["1", "0", "0", "1", "72.5", "-0.5"]);
    assert_eq!(got[3], ("Tj".into(), vec!["(a(b)cA)".into()]));
    assert_eq!(got[4].1, ["[", "(x)", "-120", "(AB)", "]"]);
    assert_eq!(got[5].0, "ET");
}

#[test]
fn comments_dicts_and_inline_images() {
    let got = ops(b"% c\nq /P <</MCID 3>> BDC BI /W 2 /H 2 ID \x00EI\xffEI Q EI \nQ");
    let names: Vec<&str> = got.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(names, ["q", "BDC", "BI", "EI", "Q"]);
}

#[test]
fn numbers() {
    let nums = |data: &[u8]| -> Vec<u64> {
        let mut lx = Lexer::new(data);
        let mut o = Operands::default();
        let _ = lx.next_op(&mut o);
        o.toks
            .iter()
            .map(|t| match *t {
                Tok::Num(v) => v.to_bits(),
                _ => u64::MAX,
            })
            .collect()
    };
    let bits = |v: f64| v.to_bits();
    assert_eq!(
        nums(b"0 1 -2 +3 42 op"),
        [0.0, 1.0, -2.0, 3.0, 42.0].map(bits)
    );
    assert_eq!(nums(b"-0 op"), [bits(-0.0)]);
    assert_eq!(
        nums(b".5 -.25 5. 0.125 op"),
        [0.5, -0.25, 5.0, 0.125].map(bits)
    );
    // The extra signs and dots are skipped; digits after a second dot are
    // still fraction digits (and the first sign counts).
    assert_eq!(nums(b"1.2.3 --5 1-2 op"), [1.23, -5.0, 12.0].map(bits));
    // Bare signs and dots are not numbers.
    assert_eq!(nums(b"- . +. op"), [u64::MAX; 3]);
    // Past the exact u64 run (15 digits) and past the 3-digit fraction table.
    let long = b"12345678901234567890.1234567890123 op";
    assert_eq!(nums(long), [reference_nums(long)[0]]);
    assert_eq!(nums(b"1234567890123456789012345 op").len(), 1);
}

/// The number bits the reference lexer reads from `data`'s first operator.
fn reference_nums(data: &[u8]) -> Vec<u64> {
    let mut lx = reference::RefLexer::new(data);
    let mut o = Operands::default();
    let _ = lx.next_op(&mut o);
    o.toks
        .iter()
        .filter_map(|t| match *t {
            Tok::Num(v) => Some(v.to_bits()),
            _ => None,
        })
        .collect()
}

#[test]
fn fraction_tables_match_the_digit_loop() {
    for n in 1..=3u32 {
        for m in 0..10usize.pow(n) {
            let digits = format!("{m:0width$}", width = n as usize);
            let mut frac: f64 = 0.0;
            let mut scale: f64 = std::hint::black_box(1.0);
            for d in digits.bytes() {
                scale /= 10.0;
                frac += f64::from(d - b'0') * scale;
            }
            let table: &[f64] = match n {
                1 => &FRAC_1,
                2 => &FRAC_2,
                _ => &FRAC_3,
            };
            assert_eq!(table[m].to_bits(), frac.to_bits(), "{digits}");
            assert_eq!(SCALE[n as usize].to_bits(), scale.to_bits());
        }
    }
}

#[test]
fn literal_strings() {
    let got = ops(br"(plain) Tj (a(b)c) Tj (x\\y\)z) Tj (\n\r\t\b\f\q\0\12\1234) Tj (un");
    assert_eq!(got[0].1, ["(plain)"]);
    assert_eq!(got[1].1, ["(a(b)c)"]);
    assert_eq!(got[2].1, ["(x\\y)z)"]);
    assert_eq!(got[3].1, ["(\n\r\t\u{8}\u{c}q\0\nS4)"]);
    // Line continuations are dropped; an unterminated string runs to the end.
    assert_eq!(ops(b"(a\\\r\nb\\\nc) Tj")[0].1, ["(abc)"]);
    assert!(ops(b"(unterminated \\").is_empty());
}

/// A token as the comparisons see it: its kind, a number's bits, its bytes.
type Token = (u8, u64, Vec<u8>);
type Lexed = (Vec<(Vec<u8>, Vec<Token>)>, bool);

fn tokens(o: &Operands, data: &[u8]) -> Vec<Token> {
    o.toks
        .iter()
        .map(|t| match *t {
            Tok::Num(v) => (0, v.to_bits(), Vec::new()),
            Tok::Name(a, b) => (1, 0, data[a as usize..b as usize].to_vec()),
            Tok::Str(a, b) => (2, 0, o.strings[a as usize..b as usize].to_vec()),
            Tok::ArrayOpen => (3, 0, Vec::new()),
            Tok::ArrayClose => (4, 0, Vec::new()),
            Tok::Other => (5, 0, Vec::new()),
        })
        .collect()
}

/// Every operator and operand of `data`, numbers by their bits, strings and
/// names by their bytes: what two lexers must agree on. `new`: this lexer
/// (computing numbers' values), else the reference one.
fn lex_all(data: &[u8], new: bool) -> Lexed {
    if new {
        return lex_ours(data, true);
    }
    let mut o = Operands::default();
    let mut out = Vec::new();
    let mut rf = reference::RefLexer::new(data);
    while let Some(op) = rf.next_op(&mut o) {
        out.push((op.to_vec(), tokens(&o, data)));
    }
    (out, rf.flooded)
}

/// `lex_all` of this lexer, numbers' values computed or not (`Lexer::values`).
fn lex_ours(data: &[u8], values: bool) -> Lexed {
    let mut o = Operands::default();
    let mut out = Vec::new();
    let mut lx = Lexer::new(data);
    lx.values = values;
    while let Some(op) = lx.next_op(&mut o) {
        out.push((op.to_vec(), tokens(&o, data)));
    }
    (out, lx.flooded)
}

/// Content-stream-like bytes: numbers, names, strings, operators and every
/// delimiter, sign, dot and escape the lexer treats specially.
fn content() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        "[+-]?[0-9]{0,20}(\\.[0-9]{0,20})?".prop_map(String::into_bytes),
        "[0-9.+-]{1,8}".prop_map(String::into_bytes),
        "/[A-Za-z0-9#.]{0,6}".prop_map(String::into_bytes),
        "[A-Za-z'\"*]{1,3}".prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..12),
        prop::collection::vec(
            prop::sample::select(b"()\\nrtbf0127\r\n x<>[]{}%/ID EI".to_vec()),
            0..16
        ),
        Just(b" ".to_vec()),
        Just(b"\n".to_vec()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|ps| ps.join(&b' '))
}

/// `lex_all` of this lexer with numbers read without their values, and
/// with them set to zero.
fn without_values(data: &[u8]) -> (Lexed, Lexed) {
    let (full, flooded) = lex_ours(data, true);
    let zeroed = full
        .into_iter()
        .map(|(op, toks)| {
            let toks: Vec<Token> = toks
                .into_iter()
                .map(|(k, v, b)| (k, if k == 0 { 0.0f64.to_bits() } else { v }, b))
                .collect();
            (op, toks)
        })
        .collect();
    (lex_ours(data, false), (zeroed, flooded))
}

proptest! {
    // Cheap cases, and the number fast paths have many shapes to cover.
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The table-driven lexer reads exactly what the reference lexer reads,
    /// number bits included.
    #[test]
    fn agrees_with_the_reference(data in content()) {
        prop_assert_eq!(lex_all(&data, true), lex_all(&data, false));
    }

    /// Any number text: same value to the bit.
    #[test]
    fn numbers_agree_with_the_reference(
        text in "[+-]{0,2}[0-9]{0,22}(\\.[0-9]{0,22})?([.+-][0-9]{0,4}){0,2}"
    ) {
        let data = format!("{text} op");
        prop_assert_eq!(lex_all(data.as_bytes(), true), lex_all(data.as_bytes(), false));
        let (passed, zeroed) = without_values(data.as_bytes());
        prop_assert_eq!(passed, zeroed);
    }

    /// Numbers passed over without their values: the same tokens, the
    /// same operators, the numbers zero.
    #[test]
    fn numbers_passed_over_take_the_same_bytes(data in content()) {
        let (passed, zeroed) = without_values(&data);
        prop_assert_eq!(passed, zeroed);
    }
}

#[test]
fn garbage_terminates() {
    for data in [
        &b"(((("[..],
        b"<<<<",
        b"[[[[[[",
        b"\\",
        b"-",
        b"1.2.3.4 5",
        b"ID",
        b"/",
    ] {
        let _ = ops(data);
    }
    let deep = vec![b'['; 100_000];
    assert!(ops(&deep).is_empty());
    let mut lx = Lexer::new(&deep);
    assert!(lx.next_op(&mut Operands::default()).is_none());
    assert!(lx.flooded);
}
