//! Producer sequence arithmetic, exactly as `DefaultRecordBatch.incrementSequence` /
//! `decrementSequence` (KIP-98): sequences live in `[0, i32::MAX]` and wrap to 0.

/// `DefaultRecordBatch.incrementSequence(sequence, increment)`, with Java's wrapping `int`
/// arithmetic (hostile input can carry negative deltas; Java computes, it does not throw).
#[inline]
pub fn increment(sequence: i32, increment: i32) -> i32 {
    if sequence > i32::MAX.wrapping_sub(increment) {
        increment.wrapping_sub(i32::MAX.wrapping_sub(sequence)).wrapping_sub(1)
    } else {
        sequence.wrapping_add(increment)
    }
}

/// `DefaultRecordBatch.decrementSequence(sequence, decrement)`, Java `int` arithmetic.
#[inline]
pub fn decrement(sequence: i32, decrement: i32) -> i32 {
    if sequence < decrement {
        i32::MAX.wrapping_sub(decrement.wrapping_sub(sequence)).wrapping_add(1)
    } else {
        sequence.wrapping_sub(decrement)
    }
}

/// Sequence of the record at `offset_delta` in a batch with `base_sequence`
/// (`DefaultRecord` / `DefaultRecordBatch`): −1 when the batch carries no sequence.
#[inline]
pub fn of_record(base_sequence: i32, offset_delta: i32) -> i32 {
    if base_sequence < 0 {
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
        // DefaultRecordBatch.incrementSequence: wraps to 0, never negative.
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
    fn hostile_deltas_wrap_like_java_int_arithmetic_instead_of_panicking() {
        // A negative lastOffsetDelta from corrupt input: Java's int math wraps silently.
        // Values as Java's int arithmetic computes them.
        assert_eq!(increment(5, -3), -2147483646);
        assert_eq!(increment(i32::MAX, i32::MIN), i32::MAX);
        assert_eq!(decrement(0, i32::MIN), i32::MIN);
        let _ = increment(i32::MIN, i32::MIN);
    }

    #[test]
    fn records_without_base_sequence_have_no_sequence() {
        assert_eq!(of_record(-1, 3), -1);
        assert_eq!(of_record(i32::MAX, 1), 0);
    }
}
