//! The symbols of a tree by name, in the order the tree first names them. After a parse every
//! symbol is in memory. From the parse cache only a flat index is read (each name, type,
//! whether defined, and where its encoding lies, plus a hash table of the names for lookups),
//! and a symbol is read and decoded the first time it is asked for: a warm `config` asks for
//! the Rust options and what they depend on, about a thousand of ~20,000.

use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;

use super::Symbol;
use crate::kconfig::SymType;

/// What is known of a symbol without decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    pub ty: Option<SymType>,
    /// Whether a `config` entry defines it (not only a name some expression reads).
    pub defined: bool,
}

const TYPES: [Option<SymType>; 6] = [
    None,
    Some(SymType::Bool),
    Some(SymType::Tristate),
    Some(SymType::Int),
    Some(SymType::Hex),
    Some(SymType::String),
];

impl Meta {
    fn of(s: &Symbol) -> Meta {
        Meta {
            ty: s.ty,
            defined: !s.defs.is_empty(),
        }
    }

    fn byte(self) -> u8 {
        let ty = TYPES.iter().position(|t| *t == self.ty).unwrap_or(0) as u8;
        ty | (u8::from(self.defined) << 7)
    }

    fn from_byte(b: u8) -> Option<Meta> {
        Some(Meta {
            ty: *TYPES.get(usize::from(b & 0x7f))?,
            defined: b & 0x80 != 0,
        })
    }
}

/// One symbol of the stored index: where its name is in the names, what is known of it, and
/// where its encoding is in the blob.
#[derive(Clone, Copy, Debug)]
struct Record {
    name: (u32, u32),
    meta: Meta,
    span: (u32, u32),
}

/// FNV-1a: the table is written and read by the same binary, so any fixed function does; this
/// one is short and good enough on symbol names.
fn hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The lookup table for `records`: see [`Stored::table`].
fn table(records: &[Record], names: &str) -> Vec<u32> {
    let mut table = vec![0u32; (records.len() * 2).next_power_of_two().max(2)];
    let mask = table.len() - 1;
    for (i, r) in records.iter().enumerate() {
        let name = &names[r.name.0 as usize..r.name.1 as usize];
        let mut slot = hash(name) as usize & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = i as u32 + 1;
    }
    table
}

/// A record's size in the file: name offset and length, meta byte, blob offset and length.
const RECORD: usize = 4 + 4 + 1 + 4 + 4;

/// The symbols of a cache file. The file stays mapped (a newer cache replaces it by rename, so
/// this one's bytes stay as they were) and each symbol is decoded when first asked for.
#[derive(Debug)]
struct Stored {
    names: String,
    records: Vec<Record>,
    /// Open addressing by [`hash`] of the name: record number + 1, or 0 for an empty slot;
    /// a power of two long, at most half full.
    table: Vec<u32>,
    cells: Vec<OnceLock<Box<Symbol>>>,
    map: memmap2::Mmap,
    /// Where the blob starts in the file.
    base: usize,
    /// The file names the symbols' places refer to by number.
    files: Arc<[Arc<str>]>,
    /// The cache file, named if a symbol cannot be read.
    path: std::path::PathBuf,
}

#[derive(Debug)]
enum Repr {
    Memory(IndexMap<String, Symbol>),
    Stored(Stored),
}

#[derive(Debug)]
pub struct Symbols(Repr);

impl Default for Symbols {
    fn default() -> Symbols {
        Symbols(Repr::Memory(IndexMap::new()))
    }
}

impl From<IndexMap<String, Symbol>> for Symbols {
    fn from(map: IndexMap<String, Symbol>) -> Symbols {
        Symbols(Repr::Memory(map))
    }
}

/// What [`Symbols::encode`] gives the cache file: the flat index (records, lookup table,
/// names), the file names the symbols' places use, and the blob of the symbols' encodings.
pub(super) struct Encoded {
    pub count: u32,
    pub index: Vec<u8>,
    pub files: Vec<Arc<str>>,
    pub blob: Vec<u8>,
}

impl Stored {
    fn name(&self, r: &Record) -> &str {
        self.names
            .get(r.name.0 as usize..r.name.1 as usize)
            .unwrap_or_default()
    }

    fn find(&self, name: &str) -> Option<usize> {
        let mask = self.table.len() - 1;
        let mut slot = hash(name) as usize & mask;
        loop {
            let i = self.table[slot].checked_sub(1)? as usize;
            if self.name(&self.records[i]) == name {
                return Some(i);
            }
            slot = (slot + 1) & mask;
        }
    }

    fn at(&self, i: usize) -> &Symbol {
        self.cells[i].get_or_init(|| {
            // The file was written whole (atomically) by this very binary: a failure here
            // means it was altered behind rkbuild.
            let (off, len) = self.records[i].span;
            let start = self.base + off as usize;
            let symbol = self
                .map
                .get(start..start + len as usize)
                .and_then(|buf| {
                    super::reading_numbers(&self.files, || postcard::from_bytes(buf).ok())
                })
                .unwrap_or_else(|| {
                    panic!(
                        "the Kconfig parse cache {} is damaged: delete it and run again",
                        self.path.display()
                    )
                });
            Box::new(symbol)
        })
    }
}

impl Symbols {
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Memory(m) => m.len(),
            Repr::Stored(s) => s.records.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn meta(&self, name: &str) -> Option<Meta> {
        match &self.0 {
            Repr::Memory(m) => m.get(name).map(Meta::of),
            Repr::Stored(s) => s.find(name).map(|i| s.records[i].meta),
        }
    }

    /// Every name with what is known of it without decoding, in order.
    pub fn metas(&self) -> Box<dyn Iterator<Item = (&str, Meta)> + '_> {
        match &self.0 {
            Repr::Memory(m) => Box::new(m.iter().map(|(n, s)| (n.as_str(), Meta::of(s)))),
            Repr::Stored(s) => Box::new(s.records.iter().map(|r| (s.name(r), r.meta))),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Symbol> {
        match &self.0 {
            Repr::Memory(m) => m.get(name),
            Repr::Stored(s) => s.find(name).map(|i| s.at(i)),
        }
    }

    /// Every symbol, decoded, in order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = (&str, &Symbol)> + '_> {
        match &self.0 {
            Repr::Memory(m) => Box::new(m.iter().map(|(n, s)| (n.as_str(), s))),
            Repr::Stored(s) => Box::new(
                s.records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (s.name(r), s.at(i))),
            ),
        }
    }

    /// The flat index and the blob of every symbol's encoding, for the cache file.
    pub(super) fn encode(&self) -> Option<Encoded> {
        let (encoded, files) = super::writing_numbers(|| {
            let mut blob = vec![];
            let mut names = String::new();
            let mut records = vec![];
            for (name, s) in self.iter() {
                let at = |n: usize| u32::try_from(n).ok();
                let (n0, b0) = (at(names.len())?, at(blob.len())?);
                names.push_str(name);
                blob = postcard::to_extend(s, blob).ok()?;
                records.push(Record {
                    name: (n0, at(names.len())?),
                    meta: Meta::of(s),
                    span: (b0, at(blob.len())? - b0),
                });
            }
            Some((names, records, blob))
        });
        let (names, records, blob) = encoded?;
        let lookup = table(&records, &names);
        let mut index = Vec::with_capacity(records.len() * (RECORD + 4) + names.len());
        for r in &records {
            for n in [r.name.0, r.name.1] {
                index.extend_from_slice(&n.to_le_bytes());
            }
            index.push(r.meta.byte());
            for n in [r.span.0, r.span.1] {
                index.extend_from_slice(&n.to_le_bytes());
            }
        }
        index.extend_from_slice(&(lookup.len() as u32).to_le_bytes());
        for i in &lookup {
            index.extend_from_slice(&i.to_le_bytes());
        }
        index.extend_from_slice(names.as_bytes());
        Some(Encoded {
            count: u32::try_from(records.len()).ok()?,
            index,
            files,
            blob,
        })
    }

    /// Symbols from a cache file: `count` symbols in the flat `index` (as [`Self::encode`]
    /// writes it), their encodings in the blob that starts at `base` of the mapped file,
    /// `blob_len` bytes long. `None` if anything is out of place.
    pub(super) fn stored(
        count: u32,
        index: Vec<u8>,
        files: Vec<Arc<str>>,
        map: memmap2::Mmap,
        (base, blob_len): (u64, u64),
        path: &std::path::Path,
    ) -> Option<Symbols> {
        let n = count as usize;
        let u32_at = |b: &[u8], at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
        };
        let (recs, rest) = index.split_at_checked(n.checked_mul(RECORD)?)?;
        let slots = u32_at(rest, 0)? as usize;
        if !slots.is_power_of_two() || slots < n * 2 {
            return None;
        }
        let (slot_bytes, names) = rest[4..].split_at_checked(slots.checked_mul(4)?)?;
        let names = String::from_utf8(names.to_vec()).ok()?;
        let mut records = Vec::with_capacity(n);
        for r in recs.chunks_exact(RECORD) {
            let rec = Record {
                name: (u32_at(r, 0)?, u32_at(r, 4)?),
                meta: Meta::from_byte(r[8])?,
                span: (u32_at(r, 9)?, u32_at(r, 13)?),
            };
            let name_ok = names
                .get(rec.name.0 as usize..rec.name.1 as usize)
                .is_some();
            let span_ok = u64::from(rec.span.0) + u64::from(rec.span.1) <= blob_len;
            if !(name_ok && span_ok) {
                return None;
            }
            records.push(rec);
        }
        let table = (0..slots)
            .map(|k| u32_at(slot_bytes, k * 4).filter(|i| (*i as usize) <= n))
            .collect::<Option<Vec<u32>>>()?;
        // A table without an empty slot would make a miss loop forever.
        if !table.contains(&0) {
            return None;
        }
        Some(Symbols(Repr::Stored(Stored {
            names,
            records,
            table,
            cells: (0..n).map(|_| OnceLock::new()).collect(),
            map,
            base: usize::try_from(base).ok()?,
            files: files.into(),
            path: path.to_path_buf(),
        })))
    }
}
