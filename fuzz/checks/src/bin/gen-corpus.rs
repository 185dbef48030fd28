//! Writes the seed corpus of the fuzz targets into `fuzz/corpus/<target>/`: cell names of every
//! board, setups with each rule option's values, and positions and moves from random playouts
//! of every board and player count (with a few options). Deterministic: a rerun writes the same
//! files. Every file is checked with the target's invariants before it is written.
//!
//! ```sh
//! cargo run --manifest-path fuzz/Cargo.toml -p halma-fuzz-checks --bin gen-corpus
//! ```

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use halma_fuzz_checks::{board_for, BOARDS};
use halma_rules::{
    notation, BoardKind, Game, OptionValues, Position, RuleOptions, SplitMix64, Variant,
};

/// Plies at which a playout's position goes into the corpus.
const SAMPLE_PLIES: [usize; 4] = [0, 7, 30, 90];

/// The corpus files of one target, by file name.
type Files = BTreeMap<String, Vec<u8>>;

fn main() -> Result<(), Box<dyn Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut corpus: BTreeMap<&str, Files> = BTreeMap::new();
    cells(corpus.entry("cell").or_default());
    setups(corpus.entry("setup").or_default())?;
    playouts(&mut corpus)?;
    for (target, files) in &corpus {
        write_target(&root, target, files)?;
    }
    Ok(())
}

/// The selector byte of a board in the corpus (see [`board_for`]).
fn selector(kind: BoardKind, arm: u8) -> u8 {
    let arm = if kind == BoardKind::Star { arm } else { 0 };
    let i = BOARDS
        .iter()
        .position(|&b| b == (kind, arm))
        .unwrap_or_else(|| unreachable!("every board of a variant is in BOARDS"));
    b'0' + i as u8
}

/// The first, a middle and the last cell of every board, and one in capitals.
fn cells(files: &mut Files) {
    for (i, &(kind, arm)) in BOARDS.iter().enumerate() {
        let board = board_for(b'0' + i as u8);
        let sel = b'0' + i as u8;
        let names =
            [0, board.len() / 2, board.len() - 1].map(|index| board.cells()[index].name.clone());
        for (which, name) in ["first", "middle", "last"].iter().zip(&names) {
            add(
                files,
                format!("{}-{which}", board_name(kind, arm)),
                sel,
                name,
            );
        }
        add(
            files,
            format!("{}-upper", board_name(kind, arm)),
            sel,
            &names[2].to_ascii_uppercase(),
        );
    }
    for file in files.values() {
        halma_fuzz_checks::cell(file);
    }
}

fn add(files: &mut Files, name: String, selector: u8, text: &str) {
    let mut data = vec![selector];
    data.extend_from_slice(text.as_bytes());
    files.insert(name, data);
}

fn board_name(kind: BoardKind, arm: u8) -> String {
    match kind {
        BoardKind::Star => format!("star{arm}"),
        _ => kind.name().to_owned(),
    }
}

/// Each player count of each board with the default options, and with every value of each
/// option that applies to the board (the ends of a number's range), where the setup can be
/// played.
fn setups(files: &mut Files) -> Result<(), Box<dyn Error>> {
    for kind in BoardKind::ALL {
        for &players in kind.players() {
            let mut texts = vec!["-".to_owned()];
            for info in RuleOptions::catalogue() {
                if !info.boards.contains(&kind) {
                    continue;
                }
                let values: Vec<String> = match &info.values {
                    OptionValues::Flag => vec!["1".into(), "0".into()],
                    OptionValues::Number(range) => {
                        vec![range.start().to_string(), range.end().to_string()]
                    }
                    OptionValues::Choice(names) => names.iter().map(|&n| n.to_owned()).collect(),
                };
                texts.extend(values.into_iter().map(|v| format!("{}={v}", info.name)));
            }
            for options in texts {
                let text = format!("{} {players} {options} - 1 0", kind.name());
                let setup = notation::parse_setup(&text)?;
                if Variant::new(&setup).is_ok() {
                    let name = format!("{}-{players}p-{}", kind.name(), options.replace('=', "-"));
                    files.insert(name, text.into_bytes());
                }
            }
        }
    }
    for file in files.values() {
        halma_fuzz_checks::setup(file);
    }
    Ok(())
}

/// The setups played out: every board and player count with the default options, and a few
/// options that change the armies or the moves.
fn playout_setups() -> Vec<String> {
    let mut texts = Vec::new();
    for kind in BoardKind::ALL {
        for &players in kind.players() {
            texts.push(format!("{} {players}", kind.name()));
        }
    }
    texts.extend(
        [
            "star 2 arm_size=3",
            "star 3 arm_size=5",
            "star 6 arm_size=2",
            "star 2 fifteen_pieces=1",
            "star 2 colours_per_player=3",
            "star 4 teams=1,foreign_corners=pass_only",
            "star 6 long_jumps=1,goal_lock=0",
            "square16 2 small_camps=1,diagonal_steps_only=1",
            "square16 4 foreign_corners=forbidden",
            "square8 2 backward_steps=no_backward,leave_home_moves=12",
        ]
        .map(str::to_owned),
    );
    texts
}

/// Random playouts of [`playout_setups`]: the positions at [`SAMPLE_PLIES`] go to `position`,
/// and a few of their legal moves (the longest jump chain as a full path, another move as its
/// start and end) with the position to `play`, and with the board's selector to `move_text`.
fn playouts(corpus: &mut BTreeMap<&str, Files>) -> Result<(), Box<dyn Error>> {
    let mut rng = SplitMix64::new(0x4841_4C4D_4120_4655);
    for text in playout_setups() {
        let options = if text.matches(' ').count() == 1 {
            " -"
        } else {
            ""
        };
        let setup = notation::parse_setup(&format!("{text}{options} - 1 0"))?;
        let variant = Arc::new(Variant::new(&setup)?);
        let sel = selector(setup.board, variant.board().arm_size());
        let mut words = text.split(' ');
        let (board, players) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let label = match words.next() {
            Some(options) => format!("{board}-{players}p-{}", options.replace(['=', ','], "-")),
            None => format!("{board}-{players}p"),
        };
        let first = variant.seat(0).ok_or("a variant has seats")?;
        let mut game = Game::new(variant.clone(), first);
        for ply in 0..=SAMPLE_PLIES[SAMPLE_PLIES.len() - 1] {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            if SAMPLE_PLIES.contains(&ply) {
                let pos_text = sample(corpus, &label, ply, &variant, game.position());
                let longest = moves
                    .iter()
                    .max_by_key(|m| m.path.len())
                    .ok_or("moves are not empty")?;
                let other = &moves[rng.index(moves.len())];
                let board = variant.board();
                let picks = [
                    ("path", notation::format_path(board, &longest.path)),
                    (
                        "fromto",
                        notation::format_path(board, &[other.mv.from, other.mv.to]),
                    ),
                ];
                for (kind, mv) in picks {
                    let name = format!("{label}-ply{ply}-{kind}");
                    let files = corpus.entry("play").or_default();
                    files.insert(name.clone(), format!("{pos_text}\n{mv}").into_bytes());
                    add(corpus.entry("move_text").or_default(), name, sel, &mv);
                }
            }
            let pick = &moves[rng.index(moves.len())];
            game.play(&halma_rules::MoveInput::FromTo(pick.mv.from, pick.mv.to))?;
        }
    }
    for (target, check) in [
        ("position", halma_fuzz_checks::position as fn(&[u8])),
        ("play", halma_fuzz_checks::play),
        ("move_text", halma_fuzz_checks::move_text),
    ] {
        for file in corpus.entry(target).or_default().values() {
            check(file);
        }
    }
    Ok(())
}

/// Adds a position to the `position` target and returns its text.
fn sample(
    corpus: &mut BTreeMap<&str, Files>,
    label: &str,
    ply: usize,
    variant: &Variant,
    pos: &Position,
) -> String {
    let text = notation::format_position(variant, pos);
    corpus
        .entry("position")
        .or_default()
        .insert(format!("{label}-ply{ply}"), text.clone().into_bytes());
    text
}

/// Writes one target's files, replacing the generated files of an earlier run; files of other
/// names (inputs added by hand, e.g. a crash's reproducer) stay.
fn write_target(root: &Path, target: &str, files: &Files) -> Result<(), Box<dyn Error>> {
    let dir = root.join(target);
    std::fs::create_dir_all(&dir)?;
    for (name, data) in files {
        std::fs::write(dir.join(name), data)?;
    }
    println!("{target}: {} files in {}", files.len(), dir.display());
    Ok(())
}
