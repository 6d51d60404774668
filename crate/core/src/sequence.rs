//! Producer sequence arithmetic, exactly as `DefaultRecordBatch.incrementSequence` /
//! `decrementSequence` (KIP-98): sequences live in `[0, i32::MAX]` and wrap to 0.

/// `DefaultRecordBatch.incrementSequence(sequence, increment)`.
#[inline]
pub fn increment(sequence: i32, increment: i32) -> i32 {
    if sequence > i32::MAX - increment {
        increment - (i32::MAX - sequence) - 1
    } else {
        sequence + increment
    }
}

/// `DefaultRecordBatch.decrementSequence(sequence, decrement)`.
#[inline]
pub fn decrement(sequence: i32, decrement: i32) -> i32 {
    if sequence < decrement {
        i32::MAX - (decrement - sequence) + 1
    } else {
        sequence - decrement
    }
}

/// Sequence of the record at `offset_delta` in a batch with `base_sequence`
/// (`DefaultRecord` / `DefaultRecordBatch`): −1 when the batch carries no sequence.
#[inline]
pub fn of_record(base_sequence: i32, offset_delta: i32) -> i32 {
    if base_sequence < 0 || offset_delta < 0 {
        -1
    } else {
        increment(base_sequence, offset_delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increment_wraps_to_zero_not_negative() {
        // record-batch.md §5 examples.
        assert_eq!(increment(i32::MAX, 1), 0);
        assert_eq!(increment(i32::MAX - 1, 3), 1);
        assert_eq!(increment(5, 2), 7);
        assert_eq!(increment(0, 0), 0);
    }

    #[test]
    fn decrement_is_the_inverse_of_increment() {
        for (s, d) in [(0, 1), (1, 3), (7, 2), (i32::MAX, 5), (3, 3)] {
            assert_eq!(increment(decrement(s, d), d), s, "({s},{d})");
        }
        assert_eq!(decrement(0, 1), i32::MAX);
    }

    #[test]
    fn records_without_base_sequence_have_no_sequence() {
        assert_eq!(of_record(-1, 3), -1);
        assert_eq!(of_record(i32::MAX, 1), 0);
    }
}
