//! `decodeColumns`: the core's [`eoslab_core::columns::columns`] handed to JS as one buffer plus
//! its layout — a few objects for a whole segment instead of several per record field, which
//! is what makes bulk decoding cost about as much as the CRC check. Conversion only: every
//! value is the core's. `www/lib/record-columns.js` turns the layout into typed-array views
//! and record accessors (keys and values as zero-copy `subarray`s of the input or of the
//! `decompressed` column).

use eoslab_core::columns::{columns, Columns};
use js_sys::{Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::{from_js_or_default, js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_COLUMNS: &'static str = r#"
/** Options of `decodeColumns`. */
export interface DecodeColumnsOptions {
  /** Cap on one batch's decompressed size in bytes (default 64 MiB). */
  maxDecompressed?: number;
}

/** A whole input in columns (eoslab_core::columns::Columns), packed in `buffer` (little-endian,
 *  each column 8-byte aligned): `layout` lists [name, type, byteOffset, length] with type one
 *  of i8 u8 i16 u16 i32 u32 i64, so `new BigInt64Array(buffer.buffer, byteOffset, length)` is
 *  the column. www/lib/record-columns.js does this and adds record accessors. */
export interface DecodeColumnsResult {
  buffer: Uint8Array;
  layout: [string, "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "i64", number, number][];
  /** As in `decode`: `at` in the input; `decompressedAt` inside a compressed batch's records. */
  errors: { at: number; kind: string; message: string; decompressedAt: number | null; batch: number | null }[];
}
"#;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ColumnsOptionsDto {
    max_decompressed: Option<f64>,
}

#[derive(Serialize)]
struct ResultDto<'a> {
    layout: &'a Layout,
    errors: &'a [ErrorRow],
}

/// Decodes binary input (a batch or a whole segment) into columns. Never throws for malformed
/// data: problems are listed in `errors`, and what decoded before them is in the columns.
/// `buffer` is a copy in JS memory: it stays valid whatever the package does next.
#[wasm_bindgen(js_name = decodeColumns, unchecked_return_type = "DecodeColumnsResult")]
pub fn decode_columns(
    input: &[u8],
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeColumnsOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let packed = PackedColumns::decode(input, options)?;
    let out = to_js(&ResultDto { layout: &packed.layout, errors: &packed.errors })?;
    Reflect::set(&out, &JsValue::from_str("buffer"), &Uint8Array::from(&packed.buffer[..]))
        .map_err(|_| js_error("cannot build result"))?;
    Ok(out)
}

/// As `decodeColumns`, without copying the result out of the package's memory: a 64 MiB
/// decompressed segment is handed to JS in no time instead of a fresh 64 MiB allocation and
/// copy (~40 ms in V8). The result owns its memory until `free()`.
#[wasm_bindgen(js_name = decodeColumnsInPlace)]
pub fn decode_columns_in_place(
    input: &[u8],
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeColumnsOptions")] options: JsValue,
) -> Result<PackedColumns, JsError> {
    PackedColumns::decode(input, options)
}

/// The columns of `decodeColumnsInPlace`, kept in the package's memory.
/// `bytes()` is a view onto that memory, not a copy: it (and every `subarray` of it) is valid
/// until `free()`, and until the package's memory grows, which any later call into the package
/// may do (the view then reads as empty: call `bytes()` again). `slice()` what must outlive that.
/// www/lib/record-columns.js (`RecordColumns.decodeInPlace`) handles both.
#[wasm_bindgen]
pub struct PackedColumns {
    buffer: Vec<u8>,
    layout: Layout,
    errors: Vec<ErrorRow>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ErrorRow {
    at: usize,
    kind: &'static str,
    message: String,
    decompressed_at: Option<usize>,
    batch: Option<u32>,
}

#[wasm_bindgen]
impl PackedColumns {
    fn decode(input: &[u8], options: JsValue) -> Result<PackedColumns, JsError> {
        let options: ColumnsOptionsDto = from_js_or_default(options, "invalid decodeColumns options")?;
        let max = crate::max_decompressed(options.max_decompressed, "decodeColumns").map_err(js_error)?;
        let mut c = columns(input, max);
        let (buffer, layout) = pack(&mut c);
        let errors = c
            .errors
            .into_iter()
            .map(|(batch, e)| ErrorRow { at: e.at, kind: e.kind, message: e.message, decompressed_at: e.decompressed_at, batch })
            .collect();
        Ok(PackedColumns { buffer, layout, errors })
    }

    /// The packed columns: a view onto the package's memory (see the type's note).
    pub fn bytes(&self) -> Uint8Array {
        // SAFETY: the view aliases `self.buffer`, which is never resized or moved while `self`
        // lives; JS is told (above, and in the .d.ts) that it ends with `free()` and with memory
        // growth, which detaches it rather than leaving it dangling.
        unsafe { Uint8Array::view(&self.buffer) }
    }

    /// [name, type, byteOffset, length] of each column in `bytes()`, as in `decodeColumns`.
    #[wasm_bindgen(getter, unchecked_return_type = "DecodeColumnsResult[\"layout\"]")]
    pub fn layout(&self) -> Result<JsValue, JsError> {
        to_js(&self.layout)
    }

    /// The problems found, as in `decodeColumns`.
    #[wasm_bindgen(getter, unchecked_return_type = "DecodeColumnsResult[\"errors\"]")]
    pub fn errors(&self) -> Result<JsValue, JsError> {
        to_js(&self.errors)
    }
}

/// A column's element type: its name in the layout and its little-endian bytes.
trait Elem: Copy {
    const NAME: &'static str;
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! elem {
    ($($t:ty => $n:literal),*) => {$(
        impl Elem for $t {
            const NAME: &'static str = $n;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
elem!(i8 => "i8", u8 => "u8", i16 => "i16", u16 => "u16", i32 => "i32", u32 => "u32", i64 => "i64");

type Layout = Vec<(&'static str, &'static str, usize, usize)>;

fn column<T: Elem>(buf: &mut Vec<u8>, layout: &mut Layout, name: &'static str, v: &[T]) {
    buf.resize(buf.len().next_multiple_of(8), 0);
    layout.push((name, T::NAME, buf.len(), v.len()));
    buf.reserve(core::mem::size_of_val(v));
    for x in v {
        x.put(buf);
    }
}

/// The decompressed bytes go first, moved rather than copied (they can be most of the result).
fn pack(c: &mut Columns) -> (Vec<u8>, Layout) {
    let size = 8 * (c.batch_start.len() * 20 + c.offset.len() * 9 + c.header_key_start.len() * 5 + 64) + c.header_key_bytes.len();
    let mut b = core::mem::take(&mut c.decompressed);
    let mut l = Layout::with_capacity(32);
    l.push(("decompressed", "u8", 0, b.len()));
    b.reserve(size);
    column(&mut b, &mut l, "batchStart", &c.batch_start);
    column(&mut b, &mut l, "batchEnd", &c.batch_end);
    column(&mut b, &mut l, "magic", &c.magic);
    column(&mut b, &mut l, "baseOffset", &c.base_offset);
    column(&mut b, &mut l, "partitionLeaderEpoch", &c.partition_leader_epoch);
    column(&mut b, &mut l, "crc", &c.crc);
    column(&mut b, &mut l, "crcComputed", &c.crc_computed);
    column(&mut b, &mut l, "attributes", &c.attributes);
    column(&mut b, &mut l, "lastOffsetDelta", &c.last_offset_delta);
    column(&mut b, &mut l, "baseTimestamp", &c.base_timestamp);
    column(&mut b, &mut l, "maxTimestamp", &c.max_timestamp);
    column(&mut b, &mut l, "producerId", &c.producer_id);
    column(&mut b, &mut l, "producerEpoch", &c.producer_epoch);
    column(&mut b, &mut l, "baseSequence", &c.base_sequence);
    column(&mut b, &mut l, "recordsCount", &c.records_count);
    column(&mut b, &mut l, "inDecompressed", &c.in_decompressed);
    column(&mut b, &mut l, "firstRecord", &c.first_record);
    column(&mut b, &mut l, "offset", &c.offset);
    column(&mut b, &mut l, "timestamp", &c.timestamp);
    column(&mut b, &mut l, "sequence", &c.sequence);
    column(&mut b, &mut l, "keyStart", &c.key_start);
    column(&mut b, &mut l, "keyLength", &c.key_length);
    column(&mut b, &mut l, "valueStart", &c.value_start);
    column(&mut b, &mut l, "valueLength", &c.value_length);
    column(&mut b, &mut l, "firstHeader", &c.first_header);
    column(&mut b, &mut l, "headerKeyStart", &c.header_key_start);
    column(&mut b, &mut l, "headerKeyLength", &c.header_key_length);
    column(&mut b, &mut l, "headerKey", &c.header_key);
    column(&mut b, &mut l, "headerKeyAt", &c.header_key_at);
    column(&mut b, &mut l, "headerKeyBytes", &c.header_key_bytes);
    column(&mut b, &mut l, "headerValueStart", &c.header_value_start);
    column(&mut b, &mut l, "headerValueLength", &c.header_value_length);
    (b, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_aligned_little_endian_and_complete() {
        let c = Columns { offset: vec![-2, 1 << 40], magic: vec![2], decompressed: vec![9, 8, 7], ..Columns::default() };
        let mut c = c;
        let (b, l) = pack(&mut c);
        assert_eq!(l.len(), 33);
        assert!(l.iter().all(|(_, _, off, _)| off % 8 == 0));
        let (_, t, off, len) = l.iter().find(|x| x.0 == "offset").copied().unwrap();
        assert_eq!((t, len), ("i64", 2));
        assert_eq!(i64::from_le_bytes(b[off..off + 8].try_into().unwrap()), -2);
        assert_eq!(i64::from_le_bytes(b[off + 8..off + 16].try_into().unwrap()), 1 << 40);
        let (_, _, off, len) = l.iter().find(|x| x.0 == "decompressed").copied().unwrap();
        assert_eq!(&b[off..off + len], &[9, 8, 7]);
    }
}
