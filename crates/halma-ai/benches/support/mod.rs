//! Shared set-up of the benchmark and the measuring example.
pub mod searches;
