//! A record as a *tape* for JavaScript to build its objects from, faster than
//! `JSON.parse` of its JSON line (what `scanMany` hands over when records are
//! wanted as objects; `raw: true` still gets the lines).
//!
//! ```text
//! worker:  Record ─serde─▶ Encoded { ops: [u32], nums: [f64], text: String }
//! JS:      ops read in order: a number from nums, a string sliced from text,
//!          an array of n values, an object of a *shape* (its keys, in order)
//! ```
//!
//! Every object's keys are a shape, sent once per `scanMany` (a record set of
//! the corpus has ~20 shapes), so JavaScript builds each object as an object
//! literal of those keys (V8 makes it with its map known in advance) instead of
//! reading, hashing and looking up every key as `JSON.parse` must. Measured on
//! the corpus records (1,800, 18 MB of JSON): ~3x less of the JavaScript
//! thread's time than `JSON.parse` of the lines.
//!
//! The values are the ones `JSON.parse` of serde_json's line gives: an integer
//! is the nearest `f64` (as `JSON.parse` rounds its digits), an `f32` the
//! `f64` of its shortest decimal (as serde_json writes it), a non-finite
//! number `null` (as serde_json writes it). What the tape cannot hold (a map
//! key that is not a string, a string longer than 2^29 UTF-16 units) is an
//! error, and the record goes over as its JSON line instead.
//!
//! The first [`LINES_FIRST`] bytes of a run's records go over as JSON lines
//! too, unless JavaScript says the tapes are worth it from the first record
//! (`Shapes::new`): `JSON.parse` is compiled code from the first record, the
//! tape's reader is JavaScript that V8 has to warm up and optimise (once a
//! process), which a small batch would not earn back (callgrind, 10 corpus
//! files: 167 M instructions with lines, 185 M with tapes from the first
//! record), and a large one or a warm process pays for in every run (the
//! first MB parsed: ~43 M).

use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// JSON text of a run's first records, in bytes, handed over as lines before
/// tapes are worth their warm-up: the tape saves ~33 M instructions a MB of
/// JSON over `JSON.parse` and its warm-up costs ~19 M (callgrind, corpus records).
pub const LINES_FIRST: usize = 1 << 20;

/// The kind of an op, in its low 3 bits; the rest is its argument.
pub const NULL: u32 = 0;
pub const FALSE: u32 = 1;
pub const TRUE: u32 = 2;
/// The next number of `nums`.
pub const NUMBER: u32 = 3;
/// A string of `arg` UTF-16 units, the next ones of `text`.
pub const STRING: u32 = 4;
/// An array of `arg` values, which follow.
pub const ARRAY: u32 = 5;
/// An object of shape `arg`: one value per key of the shape follows.
pub const OBJECT: u32 = 6;
/// The record is its JSON line (the tape could not hold it).
pub const LINE: u32 = 7;

/// Largest argument of an op.
const MAX_ARG: usize = (u32::MAX >> 3) as usize;

/// One record's tape; its objects' shapes already the run's ([`Shapes`]).
#[derive(Debug, Default)]
pub struct Encoded {
    pub ops: Vec<u32>,
    pub nums: Vec<f64>,
    pub text: String,
}

/// The shapes of a run: ids given in the order first met, by any worker.
#[derive(Debug)]
pub struct Shapes {
    inner: Mutex<ShapeTable>,
    /// Bytes of JSON lines handed over in place of tapes (see [`LINES_FIRST`]).
    lines: AtomicUsize,
    /// Bytes of JSON lines to hand over before the first tape.
    lines_budget: usize,
}

#[derive(Debug, Default)]
struct ShapeTable {
    ids: HashMap<Vec<u8>, u32>,
    /// Each shape's keys, by id.
    keys: Vec<Vec<String>>,
}

impl Shapes {
    /// A run's shapes, its first `lines_budget` bytes of records as JSON lines
    /// (0: tapes from the first record).
    pub fn new(lines_budget: usize) -> Self {
        Shapes {
            inner: Mutex::default(),
            lines: AtomicUsize::new(0),
            lines_budget,
        }
    }

    /// True while the run's records are still to go over as JSON lines.
    pub fn lines_first(&self) -> bool {
        self.lines.load(Ordering::Relaxed) < self.lines_budget
    }

    /// Counts a JSON line handed over in place of a tape.
    pub fn line_sent(&self, bytes: usize) {
        self.lines.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The shapes from `from` on (those JavaScript has not been sent yet).
    pub fn since(&self, from: usize) -> Vec<Vec<String>> {
        let t = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        t.keys.get(from..).map(<[_]>::to_vec).unwrap_or_default()
    }

    /// The run's id of each of a record's local shapes.
    fn global(&self, local: &[Vec<u8>]) -> Vec<u32> {
        let mut t = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        local
            .iter()
            .map(|k| {
                if let Some(&id) = t.ids.get(k) {
                    return id;
                }
                let id = t.keys.len() as u32;
                t.keys.push(decode_keys(k));
                t.ids.insert(k.clone(), id);
                id
            })
            .collect()
    }
}

/// A shape's keys, each as its length (4 bytes, little-endian) and its UTF-8.
fn decode_keys(mut k: &[u8]) -> Vec<String> {
    let mut keys = Vec::new();
    while let Some((len, rest)) = k.split_first_chunk::<4>() {
        let len = u32::from_le_bytes(*len) as usize;
        let (key, rest) = rest.split_at(len.min(rest.len()));
        keys.push(String::from_utf8_lossy(key).into_owned());
        k = rest;
    }
    keys
}

/// Why a value has no tape.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// `value`'s tape, its shapes given the run's ids.
pub fn encode<T: Serialize>(value: &T, shapes: &Shapes) -> Result<Encoded, Error> {
    let mut w = Writer::default();
    value.serialize(&mut w)?;
    let ids = shapes.global(&w.local);
    for at in w.objects {
        let op = &mut w.out.ops[at];
        let id = ids.get((*op >> 3) as usize).copied().unwrap_or(0);
        *op = (id << 3) | OBJECT;
    }
    Ok(w.out)
}

#[derive(Default)]
struct Writer {
    out: Encoded,
    /// This record's shapes (keys encoded as in [`decode_keys`]), by local id.
    local: Vec<Vec<u8>>,
    local_ids: HashMap<Vec<u8>, u32>,
    /// Where the ops of objects are, to be given the run's shape ids.
    objects: Vec<usize>,
    /// The keys of the objects open, innermost last (buffers reused).
    keys: Vec<Vec<u8>>,
    depth: usize,
}

fn op(kind: u32, arg: usize) -> Result<u32, Error> {
    if arg > MAX_ARG {
        return Err(Error(format!("{arg} is too large for the tape")));
    }
    Ok(((arg as u32) << 3) | kind)
}

impl Writer {
    fn number(&mut self, v: f64) {
        if v.is_finite() {
            self.out.ops.push(NUMBER);
            self.out.nums.push(v);
        } else {
            // As serde_json writes NaN and the infinities.
            self.out.ops.push(NULL);
        }
    }

    fn string(&mut self, s: &str) -> Result<(), Error> {
        let units = if s.is_ascii() {
            s.len()
        } else {
            s.encode_utf16().count()
        };
        self.out.ops.push(op(STRING, units)?);
        self.out.text.push_str(s);
        Ok(())
    }

    /// Starts an array (its length set by [`Writer::end_array`]).
    fn open_array(&mut self) -> usize {
        self.out.ops.push(ARRAY);
        self.out.ops.len() - 1
    }

    fn end_array(&mut self, at: usize, n: usize) -> Result<(), Error> {
        self.out.ops[at] = op(ARRAY, n)?;
        Ok(())
    }

    /// Starts an object (its shape set by [`Writer::end_object`]).
    fn open_object(&mut self) -> usize {
        self.out.ops.push(OBJECT);
        self.depth += 1;
        if self.keys.len() < self.depth {
            self.keys.push(Vec::new());
        }
        if let Some(k) = self.keys.get_mut(self.depth - 1) {
            k.clear();
        }
        self.out.ops.len() - 1
    }

    fn key(&mut self, key: &str) {
        if let Some(k) = self.keys.get_mut(self.depth.wrapping_sub(1)) {
            k.extend_from_slice(&(key.len() as u32).to_le_bytes());
            k.extend_from_slice(key.as_bytes());
        }
    }

    fn end_object(&mut self, at: usize) -> Result<(), Error> {
        let Some(keys) = self.keys.get(self.depth.wrapping_sub(1)) else {
            return Err(Error("an object closed twice".into()));
        };
        let id = match self.local_ids.get(keys) {
            Some(&id) => id,
            None => {
                let id = self.local.len() as u32;
                self.local.push(keys.clone());
                self.local_ids.insert(keys.clone(), id);
                id
            }
        };
        self.depth -= 1;
        self.out.ops[at] = op(OBJECT, id as usize)?;
        self.objects.push(at);
        Ok(())
    }
}

/// An array or object being written.
struct Compound<'a> {
    w: &'a mut Writer,
    at: usize,
    n: usize,
    /// For a variant written as `{ "Variant": ... }`: the outer object's op.
    outer: Option<usize>,
}

impl<'a> Compound<'a> {
    fn new(w: &'a mut Writer, at: usize, outer: Option<usize>) -> Self {
        Compound { w, at, n: 0, outer }
    }

    fn end_array(self) -> Result<(), Error> {
        self.w.end_array(self.at, self.n)?;
        match self.outer {
            Some(o) => self.w.end_object(o),
            None => Ok(()),
        }
    }

    fn end_object(self) -> Result<(), Error> {
        self.w.end_object(self.at)?;
        match self.outer {
            Some(o) => self.w.end_object(o),
            None => Ok(()),
        }
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.ops.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    // An integer is the `f64` nearest it, as `JSON.parse` reads its digits.
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    // serde_json writes an f32's shortest decimal, which `JSON.parse` reads as an f64.
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        let v = if v.is_finite() {
            v.to_string().parse::<f64>().unwrap_or(f64::from(v))
        } else {
            f64::NAN
        };
        self.number(v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.number(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v)
    }
    // As serde_json: an array of numbers.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.out.ops.push(op(ARRAY, v.len())?);
        for &b in v {
            self.number(b.into());
        }
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.ops.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), Error> {
        self.string(v)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        let at = self.open_object();
        self.key(variant);
        v.serialize(&mut *self)?;
        self.end_object(at)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        let at = self.open_array();
        Ok(Compound::new(self, at, None))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        let outer = self.open_object();
        self.key(variant);
        let at = self.open_array();
        Ok(Compound::new(self, at, Some(outer)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        let at = self.open_object();
        Ok(Compound::new(self, at, None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        let outer = self.open_object();
        self.key(variant);
        let at = self.open_object();
        Ok(Compound::new(self, at, Some(outer)))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Error> {
        self.n += 1;
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.end_array()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        self.end_array()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        self.end_array()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        self.end_array()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Result<(), Error> {
        let key = k.serialize(KeyWriter)?;
        self.w.key(&key);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.end_object()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.w.key(key);
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.end_object()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<(), Error> {
        self.end_object()
    }
}

/// A map key: a string (a map keyed otherwise goes over as its JSON line).
struct KeyWriter;

impl ser::Serializer for KeyWriter {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = ser::Impossible<String, Error>;
    type SerializeTuple = ser::Impossible<String, Error>;
    type SerializeTupleStruct = ser::Impossible<String, Error>;
    type SerializeTupleVariant = ser::Impossible<String, Error>;
    type SerializeMap = ser::Impossible<String, Error>;
    type SerializeStruct = ser::Impossible<String, Error>;
    type SerializeStructVariant = ser::Impossible<String, Error>;

    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(self, _: &str, _: u32, v: &'static str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Error> {
        v.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_i8(self, _: i8) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_i16(self, _: i16) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_i32(self, _: i32) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_i64(self, _: i64) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_u8(self, _: u8) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_u16(self, _: u16) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_u32(self, _: u32) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_u64(self, _: u64) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_f64(self, _: f64) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_none(self) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_unit(self) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Error> {
        Err(not_a_string())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_a_string())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_a_string())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(not_a_string())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(not_a_string())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_a_string())
    }
}

fn not_a_string() -> Error {
    Error("a map key that is not a string".into())
}
