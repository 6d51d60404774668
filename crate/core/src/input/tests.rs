use super::*;
use alloc::string::ToString;
use alloc::vec;

/// Example A of the golden vectors (crate/core/tests/golden.rs, 70 bytes).
const BATCH_HEX: &str = "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 00 02 6b 02 76 00";

fn batch() -> Vec<u8> {
    BATCH_HEX.split(' ').map(|h| (hexval(h.as_bytes()[0]) << 4) | hexval(h.as_bytes()[1])).collect()
}

fn ok(s: &str) -> Detected {
    match detect(s.as_bytes()) {
        Ok(d) => d,
        Err(e) => panic!("{} (at {}) for input:\n{}", e.message, e.at, s),
    }
}

fn err(s: &str) -> InputError {
    match detect(s.as_bytes()) {
        Ok(d) => panic!("expected an error, got {:?} for input:\n{}", d, s),
        Err(e) => e,
    }
}

fn notes(d: &Detected) -> Vec<&str> {
    d.stripped.iter().map(|s| s.as_str()).collect()
}

fn check(s: &str, format: Format) -> Detected {
    let d = ok(s);
    assert_eq!(d.format, format, "format for:\n{}", s);
    assert_eq!(d.bytes, batch(), "bytes for:\n{}", s);
    d
}

const XXD: &str = concat!(
    "00000000: 0000 0000 0000 0000 0000 003a ffff ffff  ...........:....\n",
    "00000010: 028c 4a54 5e00 0000 0000 0000 0001 8bcf  ..JT^...........\n",
    "00000020: e568 0000 0001 8bcf e568 0000 0000 0000  .h.......h......\n",
    "00000030: 0010 9200 0100 0000 0700 0000 0110 0000  ................\n",
    "00000040: 0002 6b02 7600                           ..k.v.\n",
);
const XXD_G1: &str = concat!(
    "00000000: 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  ...........:....\n",
    "00000010: 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf  ..JT^...........\n",
    "00000020: e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00  .h.......h......\n",
    "00000030: 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00  ................\n",
    "00000040: 00 02 6b 02 76 00                                ..k.v.\n",
);
const XXD_P: &str = concat!(
    "00000000000000000000003affffffff028c4a545e000000000000000001\n",
    "8bcfe568000000018bcfe568000000000000001092000100000007000000\n",
    "0110000000026b027600\n",
);
const XXD_I: &str = concat!(
    "unsigned char a_bin[] = {\n",
    "  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a,\n",
    "  0xff, 0xff, 0xff, 0xff, 0x02, 0x8c, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00,\n",
    "  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0x00,\n",
    "  0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
    "  0x00, 0x10, 0x92, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,\n",
    "  0x01, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00\n",
    "};\n",
    "unsigned int a_bin_len = 70;\n",
);
const XXD_ASC: &str = concat!(
    "00000000: 3031 3233 3435 3637 3839 6162 6364 6566  0123456789abcdef\n",
    "00000010: 2030 3020 3131 2032 3233 3320 3434 3535   00 11 2233 4455\n",
);
const XXD_REP: &str = concat!(
    "00000000: 0000 0000 0000 0000 0000 003a ffff ffff  ...........:....\n",
    "00000010: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
    "00000020: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
    "00000030: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
    "00000040: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
    "00000050: 6162 2063 6420 6566 2031 3220 3334 206b  ab cd ef 12 34 k\n",
);
const HEXDUMP: &str = concat!(
    "00000000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff  |...........:....|\n",
    "00000010  02 8c 4a 54 5e 00 00 00  00 00 00 00 00 01 8b cf  |..JT^...........|\n",
    "00000020  e5 68 00 00 00 01 8b cf  e5 68 00 00 00 00 00 00  |.h.......h......|\n",
    "00000030  00 10 92 00 01 00 00 00  07 00 00 00 01 10 00 00  |................|\n",
    "00000040  00 02 6b 02 76 00                                 |..k.v.|\n",
    "00000046\n",
);
const HEXDUMP_ASC: &str = concat!(
    "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n",
    "00000010  20 30 30 20 31 31 20 32  32 33 33 20 34 34 35 35  | 00 11 2233 4455|\n",
    "00000020\n",
);
const HEXDUMP_REP: &str = concat!(
    "00000000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff  |...........:....|\n",
    "00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n",
    "*\n",
    "00000050  61 62 20 63 64 20 65 66  20 31 32 20 33 34 20 6b  |ab cd ef 12 34 k|\n",
    "00000060\n",
);
const OD_X1Z: &str = concat!(
    "000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  >...........:....<\n",
    "000010 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf  >..JT^...........<\n",
    "000020 e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00  >.h.......h......<\n",
    "000030 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00  >................<\n",
    "000040 00 02 6b 02 76 00                                >..k.v.<\n",
    "000046\n",
);
const OD_X1: &str = concat!(
    "0000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
    "0000020 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
    "0000040 e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00\n",
    "0000060 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00\n",
    "0000100 00 02 6b 02 76 00\n",
    "0000106\n",
);
const OD_REP: &str = concat!(
    "000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  >...........:....<\n",
    "000010 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  >................<\n",
    "*\n",
    "000050 61 62 20 63 64 20 65 66 20 31 32 20 33 34 20 6b  >ab cd ef 12 34 k<\n",
    "000060\n",
);
const HEXDUMP_WORDS: &str = concat!(
    "0000000 0000 0000 0000 0000 0000 3a00 ffff ffff\n",
    "0000010 8c02 544a 005e 0000 0000 0000 0100 cf8b\n",
    "0000020 68e5 0000 0100 cf8b 68e5 0000 0000 0000\n",
    "0000030 1000 0092 0001 0000 0007 0000 1001 0000\n",
    "0000040 0200 026b 0076                         \n",
    "0000046\n",
);
const B64: &str = concat!(
    "AAAAAAAAAAAAAAA6/////wKMSlReAAAAAAAAAAABi8/laAAAAAGLz+VoAAAAAAAAABCSAAEAAAAH\n",
    "AAAAARAAAAACawJ2AA==\n",
);
const TSHARK: &str = concat!(
    "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
    "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
    "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
    "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
    "0040  00 02 6b 02 76 00                                 ..k.v.\n",
);
const TSHARK_DELIM: &str = concat!(
    "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   |...........:....|\n",
    "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   |..JT^...........|\n",
    "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   |.h.......h......|\n",
    "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   |................|\n",
    "0040  00 02 6b 02 76 00                                 |..k.v.|\n",
);
const WS_GUI: &str = concat!(
    "0000   00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
    "0010   02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
    "0020   e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
    "0030   00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
    "0040   00 02 6b 02 76 00                                 ..k.v.\n",
);
const WS_GUI_HEX: &str = concat!(
    "0000   00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
    "0010   02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
    "0020   e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00\n",
    "0030   00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00\n",
    "0040   00 02 6b 02 76 00\n",
);
const TSHARK_MULTI: &str = concat!(
    "Frame (71 bytes):\n",
    "0000  40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f   @ABCDEFGHIJKLMNO\n",
    "0010  50 51 52 53 54 55 56 57 58 59 5a 5b 5c 5d 5e 5f   PQRSTUVWXYZ[\\]^_\n",
    "0020  60 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f   `abcdefghijklmno\n",
    "0030  70 71 72 73 74 75 61 62 20 63 64 20 65 66 20 30   pqrstuab cd ef 0\n",
    "0040  31 20 32 33 20 34 35                              1 23 45\n",
    "\n",
    "Reassembled TCP (70 bytes):\n",
    "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
    "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
    "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
    "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
    "0040  00 02 6b 02 76 00                                 ..k.v.\n",
);
const C_STRING: &str = "\"\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000:\\377\\377\\377\\377\\002\\214JT^\\000\\000\\000\\000\\000\\000\\000\\000\\001\\213\\317\\345h\\000\\000\\000\\001\\213\\317\\345h\\000\\000\\000\\000\\000\\000\\000\\020\\222\\000\\001\\000\\000\\000\\a\\000\\000\\000\\001\\020\\000\\000\\000\\002k\\002v\\000\"\n";
const WS_C_ARRAY: &str = "unsigned char bytes[] = {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x2, 0x8c, 0x4a, 0x54, 0x5e, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x10, 0x92, 0x0, 0x1, 0x0, 0x0, 0x0, 0x7, 0x0, 0x0, 0x0, 0x1, 0x10, 0x0, 0x0, 0x0, 0x2, 0x6b, 0x2, 0x76, 0x0};\n";
const GO: &str = "[]byte{0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x2, 0x8c, 0x4a, 0x54, 0x5e, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x10, 0x92, 0x0, 0x1, 0x0, 0x0, 0x0, 0x7, 0x0, 0x0, 0x0, 0x1, 0x10, 0x0, 0x0, 0x0, 0x2, 0x6b, 0x2, 0x76, 0x0}\n";
const PY_REPR: &str = "b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00:\\xff\\xff\\xff\\xff\\x02\\x8cJT^\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5h\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5h\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x10\\x92\\x00\\x01\\x00\\x00\\x00\\x07\\x00\\x00\\x00\\x01\\x10\\x00\\x00\\x00\\x02k\\x02v\\x00'\n";
const PY_LIST: &str = "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, 255, 255, 255, 255, 2, 140, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 0, 0, 0, 0, 16, 146, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0]\n";
const JAVA: &str = "byte[] batch = new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 2, (byte) 0x8c, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, (byte) 0x8b, (byte) 0xcf, (byte) 0xe5, 104, 0, 0, 0, 1, (byte) 0x8b, (byte) 0xcf, (byte) 0xe5, 104, 0, 0, 0, 0, 0, 0, 0, 16, (byte) 0x92, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0};\n";
const JAVA_SIGNED: &str = "new byte[]{0,0,0,0,0,0,0,0,0,0,0,58,-1,-1,-1,-1,2,-116,74,84,94,0,0,0,0,0,0,0,0,1,-117,-49,-27,104,0,0,0,1,-117,-49,-27,104,0,0,0,0,0,0,0,16,-110,0,1,0,0,0,7,0,0,0,1,16,0,0,0,2,107,2,118,0}";
const RUST_ARR: &str = concat!(
    "const BATCH: [u8; 70] = [\n",
    "    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
    "    0x00, 0x00, 0x00, 0x3a, 0xff, 0xff, 0xff, 0xff,\n",
    "    0x02, 0x8c, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00,\n",
    "    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf,\n",
    "    0xe5, 0x68, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf,\n",
    "    0xe5, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
    "    0x00, 0x10, 0x92, 0x00, 0x01, 0x00, 0x00, 0x00,\n",
    "    0x07, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x00,\n",
    "    0x00, 0x02, 0x6b, 0x02, 0x76, 0x00,\n",
    "];\n",
);
const RUST_BSTR: &str = concat!(
    "let batch: &[u8] = b\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x3a\\xff\\xff\\xff\\xff\\x02\\x8c\\x4a\\x54\\x5e\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5\\x68\\x00\\\n",
    "    \\x00\\x00\\x01\\x8b\\xcf\\xe5\\x68\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x10\\x92\\x00\\x01\\x00\\x00\\x00\\x07\\x00\\x00\\x00\\x01\\x10\\x00\\x00\\x00\\x02\\x6b\\x02\\x76\\x00\";\n",
);
const KOTLIN: &str = "val batch = byteArrayOf(0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, -1, -1, -1, -1, 0x02, -116, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, -117, -49, -27, 0x68, 0x00, 0x00, 0x00, 0x01, -117, -49, -27, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, -110, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00)\n";
const JS: &str = "const batch = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, 255, 255, 255, 255, 2, 140, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 0, 0, 0, 0, 16, 146, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0]);\n";

// ---- fixtures for the other samples ------------------------------------------

/// asc.bin = b"0123456789abcdef 00 11 2233 4455": ASCII column that looks like hex.
const ASC: &[u8] = b"0123456789abcdef 00 11 2233 4455";

/// rep.bin = first 16 batch bytes, 64 zero bytes, b"ab cd ef 12 34 k".
fn rep() -> Vec<u8> {
    let mut v = batch()[..16].to_vec();
    v.extend_from_slice(&[0u8; 64]);
    v.extend_from_slice(b"ab cd ef 12 34 k");
    v
}

// ---- one test per format ------------------------------------------------------

#[test]
fn plain_hex_variants() {
    let spaced = ok(&(BATCH_HEX.to_string() + "\n"));
    assert_eq!(spaced.format, Format::Hex);
    assert_eq!(spaced.bytes, batch());
    assert_eq!(notes(&spaced), ["whitespace"]);

    let continuous: String = BATCH_HEX.split(' ').collect();
    assert_eq!(notes(&check(&continuous, Format::Hex)), Vec::<&str>::new());
    check(&continuous.to_uppercase(), Format::Hex);
    check(&format!("  \t{}\r\n\r\n", continuous), Format::Hex);

    let one_prefix = format!("0x{}", continuous);
    assert_eq!(notes(&check(&one_prefix, Format::Hex)), ["0x prefixes"]);

    let per_byte: Vec<String> = BATCH_HEX.split(' ').map(|h| format!("0x{}", h)).collect();
    let d = check(&per_byte.join(", "), Format::Hex);
    assert_eq!(notes(&d), ["0x prefixes", "whitespace", "commas"]);
    check(&per_byte.join(","), Format::Hex);
    check(&per_byte.join(" "), Format::Hex);

    let colons = BATCH_HEX.replace(' ', ":");
    assert_eq!(notes(&check(&colons, Format::Hex)), ["colons"]);
    assert_eq!(notes(&check(&BATCH_HEX.replace(' ', "-"), Format::Hex)), ["dashes"]);
    check(&BATCH_HEX.replace(' ', ", "), Format::Hex);
    check(&BATCH_HEX.replace(' ', "\t"), Format::Hex);

    // grouped in 4-digit words (xxd-like without offsets), 16 bytes per line
    let grouped: Vec<String> = continuous
        .as_bytes()
        .chunks(32)
        .map(|line| line.chunks(4).map(|g| core::str::from_utf8(g).unwrap()).collect::<Vec<_>>().join(" "))
        .collect();
    check(&grouped.join("\n"), Format::Hex);

    // xxd -p: 60 digits per line; and continuous hex hard-wrapped at an odd column
    assert_eq!(notes(&check(XXD_P, Format::Hex)), ["line breaks"]);
    let odd_wrapped: Vec<&str> =
        continuous.as_bytes().chunks(75).map(|c| core::str::from_utf8(c).unwrap()).collect();
    check(&odd_wrapped.join("\n"), Format::Hex);

    // quoted (JSON / shell) and Node.js Buffer inspection
    assert_eq!(notes(&check(&format!("\"{}\"", continuous), Format::Hex)), ["quotes"]);
    let node = format!("<Buffer {}>", BATCH_HEX);
    assert_eq!(notes(&check(&node, Format::Hex)), ["Node.js Buffer wrapper", "whitespace"]);
    let e = err("<Buffer 00 00 00 00 ... 20 more bytes>");
    assert!(e.message.contains("truncated"), "{}", e.message);

    // \x escapes only (no printable characters) are hex with \x prefixes
    let bx: String = batch().iter().map(|b| format!("\\x{:02x}", b)).collect();
    assert_eq!(notes(&check(&bx, Format::Hex)), ["\\x prefixes"]);
}

#[test]
fn xxd() {
    let d = check(XXD, Format::Xxd);
    assert_eq!(notes(&d), ["offset column", "ASCII column"]);
    check(XXD_G1, Format::Xxd);
    // indented paste (e.g. from a markdown code block) and CRLF line endings
    let indented: String = XXD.lines().map(|l| format!("    {}\r\n", l)).collect();
    check(&indented, Format::Xxd);
    // a shell prompt and command around the dump
    let d = check(&format!("$ xxd batch.bin\n{}$ \n", XXD), Format::Xxd);
    assert_eq!(notes(&d), ["surrounding text", "offset column", "ASCII column"]);
    // hex-only (ASCII column removed)
    let hex_only: String = XXD.lines().map(|l| format!("{}\n", &l[..49])).collect();
    assert_eq!(notes(&check(&hex_only, Format::Xxd)), ["offset column"]);
}

#[test]
fn xxd_options() {
    // xxd -u: upper-case hex, ASCII column unchanged
    let upper: String = XXD.lines().map(|l| format!("{}{}\n", l[..49].to_uppercase(), &l[49..])).collect();
    check(&upper, Format::Xxd);
    let g4 = concat!(
        "00000000: 00000000 00000000 0000003a ffffffff  ...........:....\n",
        "00000010: 028c4a54 5e000000 00000000 00018bcf  ..JT^...........\n",
    );
    assert_eq!(ok(g4).bytes, batch()[..32].to_vec());
    let c32 = concat!(
        "00000000: 0000 0000 0000 0000 0000 003a ffff ffff 028c 4a54 5e00 0000 0000 0000 0001 8bcf  ...........:......JT^...........\n",
        "00000020: e568 0000 0001 8bcf e568 0000 0000 0000 0010 9200 0100 0000 0700 0000 0110 0000  .h.......h......................\n",
        "00000040: 0002 6b02 7600                                                                   ..k.v.\n",
    );
    check(c32, Format::Xxd);
    // xxd -s 20: a dump that starts mid-file
    let seek = concat!(
        "00000014: 5e00 0000 0000 0000 0001 8bcf e568 0000  ^............h..\n",
        "00000024: 0001 8bcf e568 0000 0000 0000 0010 9200  .....h..........\n",
    );
    assert_eq!(ok(seek).bytes, batch()[20..52].to_vec());
    // xxd -e (little-endian words) looks like -g4 but is byte-swapped: the ASCII
    // column gives it away
    let swapped = concat!(
        "00000000: 00000000 00000000 3a000000 ffffffff  ...........:....\n",
        "00000010: 544a8c02 0000005e 00000000 cf8b0100  ..JT^...........\n",
    );
    let e = err(swapped);
    assert!(e.message.contains("byte-swapped"), "{}", e.message);
    assert_eq!((e.line, e.at), (1, 55));
}

#[test]
fn xxd_ascii_column_that_looks_like_hex() {
    let d = ok(XXD_ASC);
    assert_eq!((d.format, d.bytes.as_slice()), (Format::Xxd, ASC));
    // the last, short line: its ASCII column "ab cd ef 12" must not be read as bytes
    let tail = concat!(
        "00000000: 3031 3233 3435 3637 3839 6162 6364 6566  0123456789abcdef\n",
        "00000010: 6162 2063 6420 6566 2031 32              ab cd ef 12\n",
    );
    let d = ok(tail);
    assert_eq!(d.bytes, b"0123456789abcdefab cd ef 12");
    // a single-line dump: the double space ends the hex area
    let d = ok("00000000: 6162 2063 6420  ab cd \n");
    assert_eq!(d.bytes, b"ab cd ");
    // whitespace collapsed to single spaces: the next offset still bounds the line
    let collapsed = concat!(
        "00000000: 3031 3233 3435 3637 3839 6162 6364 6566 0123456789abcdef\n",
        "00000010: 2030 3020 3131 2032 3233 3320 3434 3535  00 11 2233 4455\n",
    );
    assert_eq!(ok(collapsed).bytes, ASC);
}

#[test]
fn hexdump_c() {
    let d = check(HEXDUMP, Format::HexdumpC);
    assert_eq!(notes(&d), ["offset column", "ASCII column", "final offset line"]);
    let d = ok(HEXDUMP_ASC);
    assert_eq!((d.format, d.bytes.as_slice()), (Format::HexdumpC, ASC));
    // without the final offset line, the last line is bounded by the column layout
    let no_final: String = HEXDUMP.lines().take(5).map(|l| format!("{}\n", l)).collect();
    check(&no_final, Format::HexdumpC);
    // wrong final offset (a line went missing) is an error
    let e = err(&HEXDUMP.replace("00000046", "00000056"));
    assert!(e.message.contains("final offset"), "{}", e.message);
    assert_eq!(e.line, 6);
}

#[test]
fn hexdump_repeat_lines() {
    let d = ok(HEXDUMP_REP);
    assert_eq!(d.format, Format::HexdumpC);
    assert_eq!(d.bytes, rep());
    assert_eq!(notes(&d), ["offset column", "ASCII column", "'*' repeat lines (expanded)", "final offset line"]);
    // od shares the format and the '*' convention
    let d = ok(OD_REP);
    assert_eq!(d.bytes, rep());
    // xxd never abbreviates
    assert_eq!(ok(XXD_REP).bytes, rep());
    // a '*' right before the final offset
    let zeros = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000040\n";
    assert_eq!(ok(zeros).bytes, vec![0u8; 64]);
}

#[test]
fn hexdump_repeat_is_capped() {
    let line = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n";
    // exactly 64 MiB is fine
    let fine = format!("{}*\n04000000\n", line);
    assert_eq!(ok(&fine).bytes.len(), MAX_REPEAT_EXPANSION);
    // a forged huge offset is an error, not an allocation
    for off in ["04000010", "ffffffffffff0000", "7ffffff0"] {
        let e = err(&format!("{}*\n{}\n", line, off));
        assert!(e.message.contains("64 MiB"), "{}", e.message);
        assert_eq!((e.line, e.at), (2, line.len()));
    }
    // the budget is for the whole input, not per block
    let two = format!("{}*\n03000000\n{}*\n03000000\n", line, line);
    assert!(err(&two).message.contains("64 MiB"));
    // not a whole number of lines
    assert!(err(&format!("{}*\n00000038\n", line)).message.contains("whole number"));
    // '*' with no offset after it
    assert!(err(&format!("{}*\n", line)).message.contains("followed by an offset"));
}

#[test]
fn od() {
    let d = check(OD_X1Z, Format::HexdumpC);
    assert_eq!(notes(&d), ["offset column", "ASCII column", "final offset line"]);
    // default od: octal offsets (0000020 = 16)
    let d = check(OD_X1, Format::HexdumpC);
    assert_eq!(notes(&d), ["offset column", "final offset line"]);
    // od -A d: decimal offsets
    let dec = concat!(
        "0000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
        "0000016 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
        "0000032\n",
    );
    assert_eq!(ok(dec).bytes, batch()[..32].to_vec());
    // 16-bit word dumps are byte-swapped: refuse rather than decode garbage
    let e = err(HEXDUMP_WORDS);
    assert!(e.message.contains("hexdump -C"), "{}", e.message);
    assert_eq!((e.at, e.line), (0, 1));
}

#[test]
fn wireshark_and_tshark() {
    let d = check(TSHARK, Format::Wireshark);
    assert_eq!(notes(&d), ["offset column", "ASCII column"]);
    check(TSHARK_DELIM, Format::Wireshark);
    check(WS_GUI, Format::Wireshark);
    assert_eq!(notes(&check(WS_GUI_HEX, Format::Wireshark)), ["offset column"]);
    // older layout with an extra space after the 8th byte
    let mid = "0000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff   ........ ...:....\n";
    assert_eq!(ok(mid).bytes, batch()[..16].to_vec());
    // tshark -x with a summary line (UTF-8 arrow) before the dump
    let with_summary = format!(
        "    1 0.000000 10.0.0.1 \u{2192} 10.0.0.2 Kafka 124 Produce v9 Request\n\n{}",
        TSHARK
    );
    let d = check(&with_summary, Format::Wireshark);
    assert_eq!(notes(&d), ["surrounding text", "offset column", "ASCII column"]);
}

#[test]
fn wireshark_ascii_column_that_looks_like_hex() {
    // 16 bytes of "ab cd ef 01 23 45" style text, then a short line of it
    let dump = concat!(
        "0000  61 62 20 63 64 20 65 66 20 30 31 20 32 33 20 34   ab cd ef 01 23 4\n",
        "0010  35 20 61 62                                       5 ab\n",
    );
    assert_eq!(ok(dump).bytes, b"ab cd ef 01 23 45 ab");
    // an oddly indented last line still yields its bytes
    let shifted = concat!(
        "0000  61 62 20 63 64 20 65 66 20 30 31 20 32 33 20 34   ab cd ef 01 23 4\n",
        "        0010  35 20 61 62                                       5 ab\n",
    );
    assert_eq!(ok(shifted).bytes, b"ab cd ef 01 23 45 ab");
    let one = "0000  61 62 20 63 64                                    ab cd\n";
    assert_eq!(ok(one).bytes, b"ab cd");
    // the frame block of the multi-block sample has such a last line
    let frame: String = TSHARK_MULTI.lines().take(6).map(|l| format!("{}\n", l)).collect();
    let d = ok(&frame);
    assert_eq!(d.bytes.len(), 71);
    assert_eq!(&d.bytes[54..], b"ab cd ef 01 23 45");
}

#[test]
fn tshark_multiple_blocks_takes_last() {
    let d = check(TSHARK_MULTI, Format::Wireshark);
    assert_eq!(notes(&d), ["earlier dump blocks", "frame header lines", "offset column", "ASCII column"]);
    // packets separated only by blank lines (offsets restart at 0000)
    let two = format!("{}\n{}", TSHARK_MULTI.lines().skip(1).take(5).map(|l| format!("{}\n", l)).collect::<String>(), TSHARK);
    assert_eq!(notes(&check(&two, Format::Wireshark)), ["earlier dump blocks", "offset column", "ASCII column"]);
    // a header whose byte count disagrees with its block (truncated paste)
    let e = err(&TSHARK_MULTI.replace("(70 bytes)", "(1234 bytes)"));
    assert!(e.message.contains("1234"), "{}", e.message);
    assert_eq!(e.line, 8);
}

#[test]
fn base64() {
    let d = check(B64, Format::Base64);
    assert_eq!(notes(&d), ["line breaks"]);
    let one_line: String = B64.split_whitespace().collect();
    check(&one_line, Format::Base64);
    // URL-safe alphabet without padding
    let url = one_line.replace('+', "-").replace('/', "_").replace('=', "");
    check(&url, Format::Base64);
    // data: URL
    let d = check(&format!("data:application/octet-stream;base64,{}", one_line), Format::Base64);
    assert_eq!(notes(&d), ["data: URL prefix"]);
    // wrapped at 64 columns with indentation
    let wrapped: String =
        one_line.as_bytes().chunks(64).map(|c| format!("  {}\n", core::str::from_utf8(c).unwrap())).collect();
    assert_eq!(notes(&check(&wrapped, Format::Base64)), ["whitespace", "line breaks"]);
    // errors
    let e = err(&format!("{}!", &one_line[..20]));
    assert!(e.message.starts_with("invalid base64 character '!'"), "{}", e.message);
    assert!(err("AAAAAAAAAAAA/////w=").message.contains("padding"));
    assert!(err("data:text/plain,hello").message.contains("base64"));
}

#[test]
fn hex_beats_base64_when_ambiguous() {
    // "AAAA" is valid base64 but only hex digits: hex
    assert_eq!(ok("AAAA").bytes, vec![0xaa, 0xaa]);
    assert_eq!(ok("deadbeef").format, Format::Hex);
    // a typo in hex is reported as such, not decoded as base64
    let e = err("0000003aff0fgfff");
    assert_eq!(e.message, "invalid hex digit 'g' at line 1, column 13");
    assert_eq!(e.at, 12);
}

#[test]
fn byte_array_literals() {
    // xxd -i (with its trailing length declaration)
    let d = check(XXD_I, Format::ByteArray);
    assert_eq!(notes(&d), ["C array braces and casts", "surrounding code"]);
    // Wireshark "Copy as C Array" / "Go literal" (single-digit 0x0)
    check(WS_C_ARRAY, Format::ByteArray);
    check(GO, Format::ByteArray);
    // Java with casts, Java signed bytes, Kotlin, JS, Rust, Python list
    check(JAVA, Format::ByteArray);
    check(JAVA_SIGNED, Format::ByteArray);
    let d = check(KOTLIN, Format::ByteArray);
    assert_eq!(notes(&d), ["parentheses", "surrounding code"]);
    check(JS, Format::ByteArray);
    let d = check(RUST_ARR, Format::ByteArray);
    assert_eq!(notes(&d), ["array brackets", "surrounding code"]);
    let d = check(PY_LIST, Format::ByteArray);
    assert_eq!(notes(&d), ["array brackets"]);
    // the spec's mixed example
    let d = ok("{0x00, 0x3a, (byte)0xff, -1, 58}");
    assert_eq!(d.bytes, vec![0x00, 0x3a, 0xff, 0xff, 58]);
    let d = ok("unsigned char buf[] = {\n  0x00, 0x3a, // header\n  0xFF, /* crc */ 255u, 'k', '\\x76',\n};");
    assert_eq!(d.bytes, vec![0x00, 0x3a, 0xff, 0xff, b'k', b'v']);
    assert_eq!(notes(&d), ["C array braces and casts", "type suffixes", "comments", "surrounding code"]);
    let d = ok("let b: &[u8] = &[0u8, 0x3a_u8, 255 as u8, b'k'];");
    assert_eq!(d.bytes, vec![0, 0x3a, 255, b'k']);
    assert_eq!(ok("[]").bytes, Vec::<u8>::new());
    // errors
    let e = err("{0x00, 256}");
    assert_eq!(e.message, "value 256 is out of byte range (-128..=255) at line 1, column 8");
    assert!(err("{0x00, -129}").message.contains("out of byte range"));
    assert!(err("{0x00,, 0x01}").message.contains("empty element"));
    assert!(err("{0x00 0x01}").message.contains("expected ','"));
    assert!(err("{0x00, 0x01").message.contains("unclosed '{'"));
    assert!(err("{010}").message.contains("ambiguous"));
    assert_eq!(ok("{00, 07, 08, 09, 0}").bytes, vec![0, 7, 8, 9, 0]);
}

#[test]
fn string_literals() {
    let d = check(PY_REPR, Format::ByteArray);
    assert_eq!(notes(&d), ["string quotes and escapes"]);
    let d = check(RUST_BSTR, Format::ByteArray);
    assert_eq!(notes(&d), ["surrounding code", "string quotes and escapes"]);
    // Wireshark "Copy as C String" (octal escapes, \a)
    check(C_STRING, Format::ByteArray);
    // implicit concatenation across lines, bytearray(...) wrapper
    let d = ok("x = bytearray(b'\\x00\\x00:'\n              b\"\\xff'k\")");
    assert_eq!(d.bytes, b"\x00\x00:\xff'k");
    // unquoted string contents: ':' and 'k' are bytes here, not separators
    let d = ok("\\x00\\x00:\\xffJT^k");
    assert_eq!((d.format, d.bytes.as_slice()), (Format::ByteArray, &b"\x00\x00:\xffJT^k"[..]));
    assert!(err("b'\\x0'").message.contains("two hex digits"));
    assert!(err("b'\\x00").message.contains("unterminated"));
    assert!(err("b'''\\x00'''").message.contains("triple"));
}

#[test]
fn errors_point_at_the_text() {
    let text = "00 00 00 00\n00 00 00 3a\nff ff g0 ff\n";
    let e = err(text);
    assert_eq!(e.message, "invalid hex digit 'g' at line 3, column 7");
    assert_eq!((e.at, e.line), (30, 3));
    assert_eq!(text.as_bytes()[e.at], b'g');

    let continuous: String = BATCH_HEX.split(' ').collect();
    let odd = &continuous[..continuous.len() - 1];
    let e = err(odd);
    assert_eq!(e.message, "odd number of hex digits (139) at line 1, column 139");
    assert_eq!((e.at, e.line), (138, 1));
    // in a spaced list the odd group is named
    let e = err("00 3a f ff");
    assert_eq!(e.message, "odd number of hex digits (1) at line 1, column 7");

    // a bad digit inside a dump, and a missing dump line
    let bad = XXD.replace("028c 4a54", "028c 4x54");
    let e = err(&bad);
    assert_eq!(e.message, "invalid hex digit 'x' at line 2, column 17");
    assert_eq!(bad.as_bytes()[e.at], b'x');
    let missing: String = XXD.lines().enumerate().filter(|(i, _)| *i != 2).map(|(_, l)| format!("{}\n", l)).collect();
    let e = err(&missing);
    assert!(e.message.starts_with("offset 30 does not follow the previous line (expected 20)"), "{}", e.message);
    assert_eq!(e.line, 3);

    // positions are byte offsets even after non-ASCII characters
    let e = err("00\u{a0}3a\u{a0}zz");
    assert_eq!(e.at, 8);
    assert!(e.message.ends_with("line 1, column 7"), "{}", e.message);

    for empty in ["", " ", "\n\n", " \t\r\n", "\u{feff}", "\u{a0}\n"] {
        let e = err(empty);
        assert_eq!((e.message.as_str(), e.at, e.line), ("empty input", 0, 1));
    }
}

#[test]
fn unicode_whitespace_is_whitespace() {
    let nbsp = BATCH_HEX.replace(' ', "\u{a0}");
    let d = check(&format!("\u{feff}{}", nbsp), Format::Hex);
    assert_eq!(notes(&d), ["whitespace", "byte order mark", "non-ASCII spaces"]);
}

#[test]
fn binary_is_passed_through() {
    let d = detect(&batch()).unwrap();
    assert_eq!((d.format, d.bytes, d.stripped), (Format::Binary, batch(), Vec::new()));
    // invalid UTF-8 / control characters
    assert_eq!(detect(&[0x30, 0x30, 0xff]).unwrap().format, Format::Binary);
    assert_eq!(detect(b"00 3a\x01").unwrap().format, Format::Binary);
    assert_eq!(detect(b"\x00").unwrap().format, Format::Binary);
}

// ---- robustness ------------------------------------------------------------------

use crate::model::schedule::XorShift;

fn samples() -> Vec<String> {
    let mut v: Vec<String> = [
        XXD, XXD_G1, XXD_P, XXD_I, XXD_ASC, XXD_REP, HEXDUMP, HEXDUMP_ASC, HEXDUMP_REP, OD_X1Z, OD_X1, OD_REP,
        HEXDUMP_WORDS, B64, TSHARK, TSHARK_DELIM, WS_GUI, WS_GUI_HEX, TSHARK_MULTI, C_STRING, WS_C_ARRAY, GO,
        PY_REPR, PY_LIST, JAVA, JAVA_SIGNED, RUST_ARR, RUST_BSTR, KOTLIN, JS,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(BATCH_HEX.to_string());
    v.push(format!("data:;base64,{}", B64));
    v.push("\u{feff}00\u{a0}3a \u{2192} 'x' \"y\" {[(".to_string());
    v.push("{0x00, (byte)-1, 'k', b'\\x00', 0b101, 0o7, 1_0u8, 0xffu8.toByte()} /* c */ // d".to_string());
    v
}

#[test]
fn never_panics_on_truncations() {
    for s in samples() {
        let b = s.as_bytes();
        for i in 0..=b.len() {
            let _ = detect(&b[..i]);
            let _ = detect(&b[i..]);
        }
    }
}

#[test]
fn never_panics_on_garbage() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let alphabet: &[u8] = b"0123456789abcdefABCDEFxX:|*-,;'\"\\{}[]()<>/=+_ \t\n\r.#bu";
    let samples = samples();
    for round in 0..6000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = match round % 3 {
            // arbitrary bytes
            0 => (0..len).map(|_| rng.next() as u8).collect(),
            // dump-ish characters
            1 => (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect(),
            // mutated real samples
            _ => {
                let mut v = samples[rng.below(samples.len())].as_bytes().to_vec();
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(v.len() + 1);
                    match rng.below(3) {
                        0 if i < v.len() => {
                            v.remove(i);
                        }
                        1 if i < v.len() => v[i] = alphabet[rng.below(alphabet.len())],
                        _ => v.insert(i, alphabet[rng.below(alphabet.len())]),
                    }
                }
                v
            }
        };
        if let Err(e) = detect(&bytes) {
            assert!(e.at <= bytes.len() && e.line >= 1, "{:?} for {:?}", e, bytes);
        }
    }
}

#[test]
fn large_inputs_stay_linear() {
    // Each of these would take minutes if any path were quadratic.
    let n = 1 << 20;
    let big_hex: String = "0a".repeat(n);
    assert_eq!(ok(&big_hex).bytes.len(), n);
    let mut dump = String::new();
    for i in 0..(n / 16) {
        dump.push_str(&format!("{:08x}  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|\n", i * 16));
    }
    assert_eq!(ok(&dump).bytes.len(), n);
    let _ = detect("*\n".repeat(n).as_bytes());
    let _ = detect(format!("00000000  00\n{}", "*\n".repeat(n)).as_bytes());
    let _ = detect("(".repeat(n).as_bytes());
    let _ = detect("0x".repeat(n).as_bytes());
    let _ = detect("\n".repeat(n).as_bytes());
    let _ = detect(format!("{}\n", "0000  00 ".repeat(n / 8)).as_bytes());
    let _ = detect(format!("0000  00\n{}", "\n".repeat(n)).as_bytes());
    let _ = detect(format!("b'{}'", "\\x00".repeat(n / 4)).as_bytes());
    let _ = detect(format!("{{{}}}", "0,".repeat(n / 2)).as_bytes());
    let _ = detect("/*".repeat(n).as_bytes());
    let _ = detect("'a".repeat(n).as_bytes());
    let _ = detect("A".repeat(n + 1).as_bytes());
    let _ = detect(format!("<Buffer {}>", "0".repeat(n)).as_bytes());
    let _ = detect("Frame (1 byte):\n".repeat(n / 16).as_bytes());
}
