//! Shared set-up of the benchmarks and the measuring examples.
pub mod midgame;
