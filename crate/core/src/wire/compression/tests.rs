use super::*;

/// Example A's uncompressed records section: one record, key "k", value "v" (the golden
/// vectors, crate/core/tests/golden.rs). Each vector below is those records compressed by the
/// codec's reference tool, as named.
const RECORDS: [u8; 9] = [0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00];

/// Example A's records, gzip row (Python gzip, mtime 0).
const GZIP_VECTOR: [u8; 29] = [
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x13, 0x60, 0x60, 0x60, 0x60,
    0xca, 0x66, 0x2a, 0x63, 0x00, 0x00, 0xa3, 0x7f, 0xcf, 0xa6, 0x09, 0x00, 0x00, 0x00,
];
/// Example A's records, snappy xerial-framing row.
const SNAPPY_XERIAL_VECTOR: [u8; 31] = [
    0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x0b, 0x09, 0x20, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76,
    0x00,
];
/// Example A's records, snappy raw row (sarama / librdkafka style).
const SNAPPY_RAW_VECTOR: [u8; 11] = [
    0x09, 0x20, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00,
];
/// Example A's records, lz4 row: header `04 22 4d 18 60 40 82`, stored block, end mark.
const LZ4_VECTOR: [u8; 24] = [
    0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, 0x09, 0x00, 0x00, 0x80, 0x10, 0x00, 0x00, 0x00,
    0x02, 0x6b, 0x02, 0x76, 0x00, 0x00, 0x00, 0x00, 0x00,
];
/// Example A's records, zstd row (single frame, no content size, no checksum).
const ZSTD_VECTOR: [u8; 18] = [
    0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x49, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b,
    0x02, 0x76, 0x00,
];

const ALL: [Codec; 5] = [
    Codec::None,
    Codec::Gzip,
    Codec::Snappy,
    Codec::Lz4,
    Codec::Zstd,
];
const BIG: usize = 1 << 30;

fn xorshift(len: usize, mut seed: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.push((seed >> 24) as u8);
    }
    v
}

fn repetitive(len: usize) -> Vec<u8> {
    b"kafka record batch "
        .iter()
        .copied()
        .cycle()
        .take(len)
        .collect()
}

fn samples() -> Vec<Vec<u8>> {
    vec![
        Vec::new(),
        vec![0x42],
        repetitive(100 * 1024),
        xorshift(300 * 1024, 0x9E37_79B9_7F4A_7C15),
    ]
}

#[test]
fn codec_ids_and_names_match_kafka_attributes() {
    for (id, name) in [
        (0, "none"),
        (1, "gzip"),
        (2, "snappy"),
        (3, "lz4"),
        (4, "zstd"),
    ] {
        let codec = Codec::from_id(id).unwrap();
        assert_eq!(codec.id(), id);
        assert_eq!(codec.name(), name);
    }
    for id in 5..=255 {
        assert_eq!(Codec::from_id(id), None);
    }
}

#[test]
fn section_9_4_vectors_decompress_to_example_a_records() {
    let cases: [(Codec, &[u8]); 5] = [
        (Codec::Gzip, &GZIP_VECTOR),
        (Codec::Snappy, &SNAPPY_XERIAL_VECTOR),
        (Codec::Snappy, &SNAPPY_RAW_VECTOR),
        (Codec::Lz4, &LZ4_VECTOR),
        (Codec::Zstd, &ZSTD_VECTOR),
    ];
    for (codec, bytes) in cases {
        for magic in [1, 2] {
            assert_eq!(
                decompress(codec, bytes, magic, 1024).unwrap(),
                RECORDS,
                "{codec:?}"
            );
        }
    }
}

#[test]
fn lz4_compress_matches_kafka_stored_block_vector() {
    assert_eq!(compress(Codec::Lz4, &RECORDS, 2), LZ4_VECTOR);
    assert_eq!(compress(Codec::Lz4, &RECORDS, 1), LZ4_VECTOR);
}

#[test]
fn lz4_magic0_header_uses_kip57_broken_checksum() {
    let v0 = compress(Codec::Lz4, &RECORDS, 0);
    assert_eq!(v0[6], 0x1a);
    assert_eq!(v0[..6], LZ4_VECTOR[..6]);
    assert_eq!(v0[7..], LZ4_VECTOR[7..]);
    assert_eq!(decompress(Codec::Lz4, &v0, 0, 1024).unwrap(), RECORDS);
}

#[test]
fn lz4_wrong_hc_rejected_for_magic_2_accepted_for_magic_0() {
    let mut bad = LZ4_VECTOR;
    bad[6] ^= 0xff;
    let err = decompress(Codec::Lz4, &bad, 2, 1024).unwrap_err();
    assert_eq!(err.message, "lz4: Stream frame descriptor corrupted");
    assert!(!err.limit_exceeded);
    assert!(decompress(Codec::Lz4, &bad, 1, 1024).is_err());
    assert_eq!(decompress(Codec::Lz4, &bad, 0, 1024).unwrap(), RECORDS);
}

#[test]
fn snappy_xerial_compress_matches_vector() {
    assert_eq!(compress(Codec::Snappy, &RECORDS, 2), SNAPPY_XERIAL_VECTOR);
}

#[test]
fn snappy_raw_compress_matches_vector_and_is_accepted() {
    assert_eq!(compress_snappy_raw(&RECORDS), SNAPPY_RAW_VECTOR);
    let data = repetitive(100 * 1024);
    let raw = compress_snappy_raw(&data);
    assert_ne!(raw[..8], XERIAL_MAGIC);
    assert_eq!(decompress(Codec::Snappy, &raw, 2, BIG).unwrap(), data);
}

#[test]
fn round_trip_every_codec_on_empty_one_byte_repetitive_and_random() {
    for data in samples() {
        for codec in ALL {
            for magic in [0, 1, 2] {
                let packed = compress(codec, &data, magic);
                let back = decompress(codec, &packed, magic, data.len()).unwrap_or_else(|e| {
                    panic!("{codec:?} len {} magic {magic}: {e}", data.len())
                });
                assert_eq!(back, data, "{codec:?} len {} magic {magic}", data.len());
            }
        }
    }
}

#[test]
fn compression_shrinks_repetitive_data() {
    let data = repetitive(100 * 1024);
    for codec in [Codec::Gzip, Codec::Snappy, Codec::Lz4, Codec::Zstd] {
        assert!(
            compress(codec, &data, 2).len() < data.len() / 4,
            "{codec:?}"
        );
    }
}

#[test]
fn lz4_writes_64k_blocks_and_stores_incompressible_ones() {
    let data = xorshift(150 * 1024, 7);
    let packed = compress(Codec::Lz4, &data, 2);
    // Three blocks (64 + 64 + 22 KiB), all stored because random data does not shrink.
    let mut pos = 7;
    let mut sizes = Vec::new();
    loop {
        let word = u32::from_le_bytes(packed[pos..pos + 4].try_into().unwrap());
        pos += 4;
        if word == 0 {
            break;
        }
        assert_ne!(word & LZ4_STORED, 0);
        let size = (word & !LZ4_STORED) as usize;
        sizes.push(size);
        pos += size;
    }
    assert_eq!(sizes, [65536, 65536, 22 * 1024]);
    assert_eq!(pos, packed.len());
}

#[test]
fn snappy_xerial_writes_32k_chunks() {
    let data = repetitive(100 * 1024);
    let packed = compress(Codec::Snappy, &data, 2);
    let mut pos = XERIAL_HEADER_LEN;
    let mut chunks = 0;
    while pos < packed.len() {
        let len = u32::from_be_bytes(packed[pos..pos + 4].try_into().unwrap()) as usize;
        let block = &packed[pos + 4..pos + 4 + len];
        assert!(snap::raw::decompress_len(block).unwrap() <= XERIAL_BLOCK);
        pos += 4 + len;
        chunks += 1;
    }
    assert_eq!(chunks, 4);
}

#[test]
fn zstd_multiple_concatenated_frames_are_all_decoded() {
    let a = repetitive(70 * 1024);
    let b = xorshift(40 * 1024, 3);
    let mut stream = compress(Codec::Zstd, &a, 2);
    stream.extend_from_slice(&ZSTD_VECTOR);
    stream.extend_from_slice(&compress(Codec::Zstd, &b, 2));
    let mut expected = a.clone();
    expected.extend_from_slice(&RECORDS);
    expected.extend_from_slice(&b);
    assert_eq!(decompress(Codec::Zstd, &stream, 2, BIG).unwrap(), expected);
}

#[test]
fn zstd_skippable_frames_are_skipped() {
    let mut stream = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 0xaa, 0xbb, 0xcc];
    stream.extend_from_slice(&ZSTD_VECTOR);
    assert_eq!(decompress(Codec::Zstd, &stream, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn zstd_trailing_garbage_is_rejected() {
    let mut stream = ZSTD_VECTOR.to_vec();
    stream.extend_from_slice(&[1, 2, 3, 4, 5]);
    let err = decompress(Codec::Zstd, &stream, 2, 1024).unwrap_err();
    assert!(
        err.message.starts_with("zstd: unknown frame magic"),
        "{}",
        err.message
    );
    assert_eq!(err.at, ZSTD_VECTOR.len());
}

#[test]
fn zstd_huge_declared_window_or_content_size_is_not_trusted() {
    // Window descriptor 0x88: 128 MiB window (libzstd's default maximum), 9-byte raw block:
    // decoded with a window clamped to the cap.
    let mut big_window = ZSTD_VECTOR;
    big_window[5] = 0x88;
    assert_eq!(
        decompress(Codec::Zstd, &big_window, 2, 1024).unwrap(),
        RECORDS
    );
    // 0x90: 256 MiB, beyond libzstd's default limit: zstd-jni (so Kafka) refuses it.
    let mut huge_window = ZSTD_VECTOR;
    huge_window[5] = 0x90;
    let err = decompress(Codec::Zstd, &huge_window, 2, BIG).unwrap_err();
    assert!(err.message.contains("too much memory"), "{}", err.message);
    // Single segment with an 8-byte Frame_Content_Size of 2^40: the window is the content
    // size, refused the same way, without allocating anything near 2^40.
    let mut fcs = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
    fcs.extend_from_slice(&(1u64 << 40).to_le_bytes());
    fcs.extend_from_slice(&ZSTD_VECTOR[6..]);
    assert!(decompress(Codec::Zstd, &fcs, 2, BIG).is_err());
    // Single segment declaring 100 bytes but holding 9: content size mismatch.
    let mut short = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, 100];
    short.extend_from_slice(&ZSTD_VECTOR[6..]);
    let err = decompress(Codec::Zstd, &short, 2, BIG).unwrap_err();
    assert!(
        err.message.contains("content size mismatch"),
        "{}",
        err.message
    );
    // A correct single-segment content size is accepted.
    let mut ok = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, 9];
    ok.extend_from_slice(&ZSTD_VECTOR[6..]);
    assert_eq!(decompress(Codec::Zstd, &ok, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn decompress_into_appends_counts_only_appended_bytes_and_restores_on_error() {
    let data = {
        let mut d = repetitive(150 * 1024);
        d.extend_from_slice(&xorshift(5000, 3));
        d
    };
    for codec in ALL {
        for magic in [0, 2] {
            let packed = compress(codec, &data, magic);
            let mut out = b"prefix".to_vec();
            decompress_into(codec, &packed, magic, data.len(), &mut out).unwrap();
            assert_eq!(&out[..6], b"prefix");
            assert!(out[6..] == data[..], "{codec:?}");
            // Appending again, into a buffer with capacity to spare.
            decompress_into(codec, &packed, magic, data.len(), &mut out).unwrap();
            assert_eq!(out.len(), 6 + 2 * data.len());
            // Over the cap: the same error as `decompress`, and `out` unchanged.
            let before = out.clone();
            let err = decompress_into(codec, &packed, magic, data.len() - 1, &mut out);
            assert_eq!(
                err,
                decompress(codec, &packed, magic, data.len() - 1).map(|_| ())
            );
            assert!(err.unwrap_err().limit_exceeded);
            assert!(out == before, "{codec:?}");
            // Corrupt: the same error as `decompress`, and `out` unchanged.
            let cut = &packed[..packed.len() - 1];
            let err = decompress_into(codec, cut, magic, BIG, &mut out);
            assert_eq!(
                err,
                decompress(codec, cut, magic, BIG).map(|_| ()),
                "{codec:?}"
            );
            if err.is_err() {
                assert!(out == before, "{codec:?}");
            }
        }
    }
}

#[test]
fn zstd_window_over_ruzstd_reset_limit_accepted_in_the_first_frame_only() {
    // ruzstd accepts a 104 MiB window (> its 100 MiB `reset` limit) in a new decoder's first
    // frame but refuses it in later ones; that stays so (the ring-buffer priming skips it).
    let frame = {
        let mut f = compress(Codec::Zstd, &xorshift(8000, 9), 2);
        assert_eq!(f[4], 0x00, "no single segment, no content size");
        f[5] = (16 << 3) | 5; // 64 MiB + 5/8: 104 MiB
        f
    };
    assert_eq!(zstd_window(frame[5]), 104 << 20);
    assert_eq!(
        decompress(Codec::Zstd, &frame, 2, BIG).unwrap(),
        xorshift(8000, 9)
    );
    let mut two = frame.clone();
    two.extend_from_slice(&frame);
    let err = decompress(Codec::Zstd, &two, 2, BIG).unwrap_err();
    assert!(!err.limit_exceeded);
    assert_eq!(err.at, frame.len(), "{err}");
    // A small window first, then the big one: refused as before.
    let mut small_first = compress(Codec::Zstd, &RECORDS, 2);
    let at = small_first.len();
    small_first.extend_from_slice(&frame);
    assert_eq!(
        decompress(Codec::Zstd, &small_first, 2, BIG)
            .unwrap_err()
            .at,
        at
    );
}

#[test]
fn zstd_content_checksum_is_verified() {
    // FHD 0x04: checksum flag; then the low 32 bits of XXH64(records).
    let mut framed = vec![0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x00];
    framed.extend_from_slice(&ZSTD_VECTOR[6..]);
    let sum = xxhash_rust::xxh64::xxh64(&RECORDS, 0) as u32;
    framed.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(decompress(Codec::Zstd, &framed, 2, 1024).unwrap(), RECORDS);
    let last = framed.len() - 1;
    framed[last] ^= 1;
    let err = decompress(Codec::Zstd, &framed, 2, 1024).unwrap_err();
    assert!(err.message.contains("checksum"), "{}", err.message);
}

#[test]
fn zstd_empty_input_is_an_error() {
    assert!(decompress(Codec::Zstd, &[], 2, 1024).is_err());
}

#[test]
fn gzip_concatenated_members_are_all_decoded() {
    let a = repetitive(50 * 1024);
    let mut stream = compress(Codec::Gzip, &a, 2);
    stream.extend_from_slice(&GZIP_VECTOR);
    stream.extend_from_slice(&compress(Codec::Gzip, &[], 2));
    let mut expected = a.clone();
    expected.extend_from_slice(&RECORDS);
    assert_eq!(decompress(Codec::Gzip, &stream, 2, BIG).unwrap(), expected);
}

#[test]
fn gzip_trailing_bytes_that_are_not_a_member_are_ignored() {
    let mut stream = GZIP_VECTOR.to_vec();
    stream.extend_from_slice(&[0u8; 40]);
    assert_eq!(decompress(Codec::Gzip, &stream, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn gzip_optional_header_fields_are_skipped_and_header_crc_checked() {
    let deflate = &GZIP_VECTOR[10..];
    // FEXTRA + FNAME + FCOMMENT + FHCRC.
    let mut header = vec![0x1f, 0x8b, 0x08, 0x1e, 0, 0, 0, 0, 0, 0xff];
    header.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
    header.extend_from_slice(b"name\0comment\0");
    let hcrc = (crc32fast::hash(&header) & 0xffff) as u16;
    let mut good = header.clone();
    good.extend_from_slice(&hcrc.to_le_bytes());
    good.extend_from_slice(deflate);
    assert_eq!(decompress(Codec::Gzip, &good, 2, 1024).unwrap(), RECORDS);
    let mut bad = header;
    bad.extend_from_slice(&(hcrc ^ 1).to_le_bytes());
    bad.extend_from_slice(deflate);
    let err = decompress(Codec::Gzip, &bad, 2, 1024).unwrap_err();
    assert_eq!(err.message, "gzip: Corrupt GZIP header");
}

#[test]
fn gzip_bad_magic_method_and_trailer_are_rejected() {
    let mut bad_magic = GZIP_VECTOR;
    bad_magic[0] = 0x1e;
    assert_eq!(
        decompress(Codec::Gzip, &bad_magic, 2, 1024)
            .unwrap_err()
            .message,
        "gzip: Not in GZIP format"
    );
    let mut bad_method = GZIP_VECTOR;
    bad_method[2] = 7;
    assert!(decompress(Codec::Gzip, &bad_method, 2, 1024)
        .unwrap_err()
        .message
        .contains("Unsupported compression method"));
    let mut bad_crc = GZIP_VECTOR;
    bad_crc[21] ^= 1;
    assert_eq!(
        decompress(Codec::Gzip, &bad_crc, 2, 1024)
            .unwrap_err()
            .message,
        "gzip: Corrupt GZIP trailer"
    );
    let mut bad_size = GZIP_VECTOR;
    bad_size[25] = 10;
    assert_eq!(
        decompress(Codec::Gzip, &bad_size, 2, 1024)
            .unwrap_err()
            .message,
        "gzip: Corrupt GZIP trailer"
    );
    assert!(decompress(Codec::Gzip, &[], 2, 1024).is_err());
}

#[test]
fn snappy_repeated_xerial_header_between_chunks_is_tolerated() {
    let mut stream = SNAPPY_XERIAL_VECTOR.to_vec();
    stream.extend_from_slice(&SNAPPY_XERIAL_VECTOR); // header + chunk again
    let mut expected = RECORDS.to_vec();
    expected.extend_from_slice(&RECORDS);
    assert_eq!(
        decompress(Codec::Snappy, &stream, 2, 1024).unwrap(),
        expected
    );
}

#[test]
fn snappy_framing_edge_cases_follow_snappy_java() {
    // Empty input: empty output.
    assert_eq!(
        decompress(Codec::Snappy, &[], 2, 1024).unwrap(),
        Vec::<u8>::new()
    );
    // Header only: no chunks.
    assert_eq!(
        decompress(Codec::Snappy, &SNAPPY_XERIAL_VECTOR[..16], 2, 1024).unwrap(),
        [0u8; 0]
    );
    // 1–3 stray bytes where a chunk length is expected: end of stream.
    let mut stray = SNAPPY_XERIAL_VECTOR.to_vec();
    stray.extend_from_slice(&[0, 0]);
    assert_eq!(decompress(Codec::Snappy, &stray, 2, 1024).unwrap(), RECORDS);
    // A chunk longer than the input: error.
    let mut long = SNAPPY_XERIAL_VECTOR;
    long[19] = 0x0c;
    assert!(decompress(Codec::Snappy, &long, 2, 1024).is_err());
    // Negative chunk length: error.
    let mut negative = SNAPPY_XERIAL_VECTOR;
    negative[16] = 0xff;
    assert!(decompress(Codec::Snappy, &negative, 2, 1024).is_err());
    // Version 0: incompatible.
    let mut v0 = SNAPPY_XERIAL_VECTOR;
    v0[11] = 0;
    assert!(decompress(Codec::Snappy, &v0, 2, 1024)
        .unwrap_err()
        .message
        .contains("version"));
    // Version/compat written little-endian (seen from some producers): still accepted.
    let mut le = SNAPPY_XERIAL_VECTOR;
    le[8..16].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(decompress(Codec::Snappy, &le, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn snappy_impossible_declared_length_is_corrupt_not_allocated() {
    // varint 0xffffffff (4 GiB - 1) followed by one literal byte.
    let raw = [0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x41];
    let err = decompress(Codec::Snappy, &raw, 2, usize::MAX).unwrap_err();
    assert!(!err.limit_exceeded);
    assert!(err.message.starts_with("snappy: "), "{}", err.message);
}

#[test]
fn lz4_block_checksum_verified_and_content_checksum_read_but_not_verified() {
    // FLG 0x74: version 1, independent, block checksum, content checksum. Correct HC.
    let mut frame = vec![0x04, 0x22, 0x4d, 0x18, 0x74, 0x40];
    frame.push(lz4_hc(&[0x74, 0x40]));
    frame.extend_from_slice(&(9u32 | LZ4_STORED).to_le_bytes());
    frame.extend_from_slice(&RECORDS);
    frame.extend_from_slice(&xxhash_rust::xxh32::xxh32(&RECORDS, 0).to_le_bytes());
    frame.extend_from_slice(&0u32.to_le_bytes());
    frame.extend_from_slice(&0xdead_beefu32.to_le_bytes()); // wrong content checksum
    assert_eq!(decompress(Codec::Lz4, &frame, 2, 1024).unwrap(), RECORDS);
    // Missing content checksum after the end mark: premature end.
    let short = &frame[..frame.len() - 4];
    assert_eq!(
        decompress(Codec::Lz4, short, 2, 1024).unwrap_err().message,
        "lz4: Stream ended prematurely"
    );
    // Corrupt block checksum.
    let mut bad = frame.clone();
    bad[11 + 9] ^= 1;
    assert_eq!(
        decompress(Codec::Lz4, &bad, 2, 1024).unwrap_err().message,
        "lz4: Block checksum mismatch"
    );
}

#[test]
fn lz4_content_size_field_is_skipped_and_covered_by_hc() {
    let mut frame = vec![0x04, 0x22, 0x4d, 0x18, 0x68, 0x40];
    frame.extend_from_slice(&9u64.to_le_bytes());
    let hc = lz4_hc(&frame[4..]);
    frame.push(hc);
    frame.extend_from_slice(&LZ4_VECTOR[7..]);
    assert_eq!(decompress(Codec::Lz4, &frame, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn lz4_header_validation_matches_kafka_messages() {
    let with = |i: usize, b: u8| {
        let mut v = LZ4_VECTOR;
        v[i] = b;
        decompress(Codec::Lz4, &v, 0, 1024).unwrap_err().message
    };
    assert_eq!(
        with(0, 0x05),
        "lz4: Stream unsupported (invalid magic bytes)"
    );
    assert_eq!(with(4, 0x61), "lz4: Reserved bits must be 0");
    assert_eq!(with(4, 0x40), "lz4: Dependent block stream is unsupported");
    assert_eq!(with(4, 0xa0), "lz4: Version 2 is unsupported");
    assert_eq!(with(5, 0x41), "lz4: Reserved2 field must be 0");
    assert_eq!(
        with(5, 0x30),
        "lz4: Block size value must be between 4 and 7"
    );
    assert_eq!(with(5, 0xc0), "lz4: Reserved3 field must be 0");
    assert_eq!(
        decompress(Codec::Lz4, &LZ4_VECTOR[..5], 2, 1024)
            .unwrap_err()
            .message,
        "lz4: Stream ended prematurely"
    );
}

#[test]
fn lz4_block_larger_than_bd_maximum_is_rejected() {
    let mut frame = LZ4_VECTOR[..7].to_vec();
    frame.extend_from_slice(&(65537u32 | LZ4_STORED).to_le_bytes());
    frame.extend_from_slice(&vec![0u8; 65537]);
    frame.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(
        decompress(Codec::Lz4, &frame, 2, BIG).unwrap_err().message,
        "lz4: Block size 65537 exceeded max: 65536"
    );
    // BD 0x50 (256 KiB) accepts the same block.
    frame[5] = 0x50;
    frame[6] = lz4_hc(&[0x60, 0x50]);
    assert_eq!(decompress(Codec::Lz4, &frame, 2, BIG).unwrap().len(), 65537);
}

#[test]
fn lz4_missing_end_mark_is_premature_and_trailing_bytes_after_it_ignored() {
    let cut = &LZ4_VECTOR[..LZ4_VECTOR.len() - 4];
    assert!(decompress(Codec::Lz4, cut, 2, 1024).is_err());
    let mut extra = LZ4_VECTOR.to_vec();
    extra.extend_from_slice(&[9, 9, 9]);
    assert_eq!(decompress(Codec::Lz4, &extra, 2, 1024).unwrap(), RECORDS);
}

#[test]
fn cap_exceeded_is_reported_as_limit_for_every_codec() {
    let data = repetitive(100 * 1024);
    for codec in ALL {
        for magic in [0, 2] {
            let packed = compress(codec, &data, magic);
            assert_eq!(decompress(codec, &packed, magic, data.len()).unwrap(), data);
            for cap in [0, 1, 1000, data.len() - 1] {
                let err = decompress(codec, &packed, magic, cap).unwrap_err();
                assert!(err.limit_exceeded, "{codec:?} cap {cap}: {err}");
                assert_eq!(
                    err.message,
                    format!("decompressed size exceeds the limit of {cap} bytes")
                );
            }
        }
    }
    // Raw snappy and the golden compressed vectors too.
    let raw = compress_snappy_raw(&data);
    assert!(
        decompress(Codec::Snappy, &raw, 2, 10)
            .unwrap_err()
            .limit_exceeded
    );
    for (codec, v) in [
        (Codec::Gzip, &GZIP_VECTOR[..]),
        (Codec::Snappy, &SNAPPY_XERIAL_VECTOR[..]),
        (Codec::Snappy, &SNAPPY_RAW_VECTOR[..]),
        (Codec::Lz4, &LZ4_VECTOR[..]),
        (Codec::Zstd, &ZSTD_VECTOR[..]),
    ] {
        assert!(
            decompress(codec, v, 2, 8).unwrap_err().limit_exceeded,
            "{codec:?}"
        );
        assert_eq!(decompress(codec, v, 2, 9).unwrap(), RECORDS);
    }
}

#[test]
fn zstd_rle_bomb_stops_at_cap() {
    // One frame of many RLE blocks (each 4 bytes -> 128 KiB), no end: must stop at the cap.
    let mut bomb = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]; // 8 MiB window
    for _ in 0..64 {
        // Block header: not last, type 1 (RLE), size 128 KiB; then the byte.
        let header = (128u32 * 1024) << 3 | 1 << 1;
        bomb.extend_from_slice(&header.to_le_bytes()[..3]);
        bomb.push(0x61);
    }
    let err = decompress(Codec::Zstd, &bomb, 2, 1 << 20).unwrap_err();
    assert!(err.limit_exceeded, "{err}");
}

#[test]
fn truncated_inputs_of_every_codec_never_panic() {
    let data = xorshift(3000, 11);
    let mut streams: Vec<(Codec, Vec<u8>)> = Vec::new();
    for codec in ALL {
        let mut mixed = repetitive(5000);
        mixed.extend_from_slice(&data);
        streams.push((codec, compress(codec, &mixed, 2)));
    }
    streams.push((Codec::Snappy, compress_snappy_raw(&repetitive(5000))));
    for (codec, stream) in &streams {
        for len in 0..stream.len() {
            for magic in [0, 2] {
                let _ = decompress(*codec, &stream[..len], magic, 1 << 20);
            }
        }
        if *codec != Codec::None {
            // Every strict prefix of a framed stream is detectably incomplete, except for
            // snappy's tolerated stray chunk-length bytes, and raw snappy, which is a
            // single block.
            let cut = &stream[..stream.len() - 1];
            if *codec != Codec::Snappy {
                assert!(decompress(*codec, cut, 2, 1 << 20).is_err(), "{codec:?}");
            }
        }
    }
}

#[test]
fn corrupted_inputs_of_every_codec_never_panic() {
    let data = {
        let mut d = repetitive(20_000);
        d.extend_from_slice(&xorshift(2000, 5));
        d
    };
    let mut seed = 0x1234_5678_9abc_def0u64;
    for codec in ALL {
        let stream = compress(codec, &data, 2);
        for _ in 0..300 {
            let mut s = stream.clone();
            for _ in 0..3 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let i = (seed % s.len() as u64) as usize;
                s[i] = (seed >> 32) as u8;
            }
            let _ = decompress(codec, &s, 2, 1 << 20);
            let _ = decompress(codec, &s, 0, 64);
        }
    }
}
