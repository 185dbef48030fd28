//! Replays the committed seed corpus (`fuzz/corpus/<target>/`) through the targets' invariants
//! on the stable toolchain: every seed must pass, and every target must have seeds.

use std::path::PathBuf;

type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 5] = [
    ("cell", halma_fuzz_checks::cell),
    ("move_text", halma_fuzz_checks::move_text),
    ("position", halma_fuzz_checks::position),
    ("setup", halma_fuzz_checks::setup),
    ("play", halma_fuzz_checks::play),
];

#[test]
fn every_seed_passes_its_targets_invariants() -> std::io::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    for (target, check) in TARGETS {
        let mut seeds = 0;
        for entry in std::fs::read_dir(root.join(target))? {
            let path = entry?.path();
            check(&std::fs::read(&path)?);
            seeds += 1;
        }
        assert!(seeds > 0, "no seeds for {target}");
    }
    Ok(())
}

/// The seeds must reach the parsers' accepting paths, not only their error paths: a seed
/// corpus of rejected inputs would leave the invariants unchecked until the fuzzer finds a
/// valid input by itself.
#[test]
fn the_position_and_move_seeds_parse() -> std::io::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    for entry in std::fs::read_dir(root.join("play"))? {
        let text = std::fs::read_to_string(entry?.path())?;
        let (pos, mv) = text.split_once('\n').expect("a play seed has two lines");
        let (variant, _) =
            halma_rules::notation::parse_position(pos).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
        assert!(
            halma_rules::notation::parse_move(variant.board(), mv).is_ok(),
            "{mv:?}"
        );
    }
    Ok(())
}
