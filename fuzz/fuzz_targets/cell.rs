//! Fuzz target: the invariants of `halma_fuzz_checks::cell` (see that function).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| halma_fuzz_checks::cell(data));
