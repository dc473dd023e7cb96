//! Signer UUIDs: random in use, reproducible in tests.

use std::fmt;
use uuid::Uuid;

/// Makes the UUIDs of signers that have none.
pub trait IdGenerator: fmt::Debug + Send {
    /// The next UUID (version 4 layout).
    fn next_uuid(&mut self) -> Uuid;
}

/// Random version 4 UUIDs (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomIds;

impl IdGenerator for RandomIds {
    fn next_uuid(&mut self) -> Uuid {
        Uuid::new_v4()
    }
}

/// Reproducible UUIDs with the version 4 layout, from a seed and a counter: the
/// same seed gives the same sequence (for tests and golden files).
///
/// ```
/// use signprep_pack::{IdGenerator, SeededIds};
/// let mut ids = SeededIds::new(7);
/// let a = ids.next_uuid();
/// assert_eq!(a.get_version_num(), 4);
/// assert_eq!(a, SeededIds::new(7).next_uuid());
/// assert_ne!(a, ids.next_uuid());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SeededIds {
    seed: u64,
    counter: u64,
}

impl SeededIds {
    /// A sequence for this seed.
    pub fn new(seed: u64) -> Self {
        SeededIds { seed, counter: 0 }
    }
}

impl IdGenerator for SeededIds {
    fn next_uuid(&mut self) -> Uuid {
        self.counter += 1;
        let mut bytes = [0u8; 16];
        let (hi, lo) = bytes.split_at_mut(8);
        hi.copy_from_slice(&splitmix64(self.seed ^ self.counter.rotate_left(32)).to_be_bytes());
        lo.copy_from_slice(&splitmix64(self.seed.wrapping_add(self.counter)).to_be_bytes());
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }
}

/// The SplitMix64 finaliser: spreads the bits of a counter (not for secrets).
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
