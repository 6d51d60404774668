//! Checksums. v2 batches use CRC-32C (Castagnoli) over `[21, end)`
//! (`clients/.../common/utils/Crc32C.java`, `DefaultRecordBatch.computeChecksum`);
//! legacy magic 0/1 messages use CRC-32 (IEEE, `java.util.zip.CRC32`) over `[16, end)`
//! (`LegacyRecord.computeChecksum`).

/// CRC-32C as Kafka computes it for magic 2.
#[inline]
pub fn crc32c(data: &[u8]) -> u32 {
    crc32c::crc32c(data)
}

/// CRC-32 (IEEE 802.3) as Kafka computes it for magic 0 and 1.
#[inline]
pub fn crc32_ieee(data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(data);
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values_match_the_standard_catalogue() {
        // The CRC catalogue's check values (the CRC of "123456789").
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32_ieee(b"123456789"), 0xCBF4_3926);
    }
}
