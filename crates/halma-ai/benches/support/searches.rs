//! The searches of the nodes-per-second benchmark, shared by the criterion benchmark
//! (`benches/search.rs`) and the fixed-work example (`examples/nodes.rs`) that instruction
//! counts (callgrind) and the before/after result check are taken from.

use halma_ai::{
    Brs, Budget, Greedy, Mcts, MctsOptions, MultiMode, Pvs, PvsOptions, RaceEvaluator,
    SearchResult, Strategy,
};
use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};

/// Which search a benchmark runs.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Two-sided PVS with its default options.
    Pvs,
    /// Best-Reply Search.
    Brs,
    /// Level 10's opponent-model search for three or more units ([`Brs::modelling`]).
    Model,
    /// Monte Carlo tree search with max^n backups; its depth counts thousands of iterations.
    Mcts,
}

/// One benchmark: a name, the board and player count, the search and its fixed depth.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    /// The benchmark's name (criterion's group is the kind).
    pub name: &'static str,
    /// The board.
    pub board: BoardKind,
    /// The player count.
    pub players: u8,
    /// The search.
    pub kind: Kind,
    /// Its fixed depth.
    pub depth: u32,
}

/// Every search of the benchmark.
pub const SEARCHES: [Search; 8] = [
    Search {
        name: "star2_depth4",
        board: BoardKind::Star,
        players: 2,
        kind: Kind::Pvs,
        depth: 4,
    },
    Search {
        name: "square16_depth3",
        board: BoardKind::Square16,
        players: 2,
        kind: Kind::Pvs,
        depth: 3,
    },
    Search {
        name: "square8_depth4",
        board: BoardKind::Square8,
        players: 2,
        kind: Kind::Pvs,
        depth: 4,
    },
    Search {
        name: "star3_depth5",
        board: BoardKind::Star,
        players: 3,
        kind: Kind::Brs,
        depth: 5,
    },
    Search {
        name: "star6_depth3",
        board: BoardKind::Star,
        players: 6,
        kind: Kind::Brs,
        depth: 3,
    },
    Search {
        name: "star6_model_depth5",
        board: BoardKind::Star,
        players: 6,
        kind: Kind::Model,
        depth: 5,
    },
    Search {
        name: "star4_model_depth5",
        board: BoardKind::Star,
        players: 4,
        kind: Kind::Model,
        depth: 5,
    },
    Search {
        name: "star6_mcts_2k",
        board: BoardKind::Star,
        players: 6,
        kind: Kind::Mcts,
        depth: 2,
    },
];

/// A mid-game position: 30 plies of seeded greedy play from the start.
///
/// # Panics
/// When the setup is not playable (a bug in the table above).
pub fn midgame(board: BoardKind, players: u8) -> (Variant, Position) {
    let setup = GameSetup {
        board,
        players,
        options: RuleOptions::default(),
    };
    let variant = match Variant::new(&setup) {
        Ok(v) => v,
        Err(e) => panic!("setup: {e}"),
    };
    let eval = RaceEvaluator::new(&variant);
    let Some(first) = variant.seat(0) else {
        panic!("no seat 0")
    };
    let mut pos = Position::start(&variant, first);
    let mut greedy = Greedy::new(&variant, &eval, 16, 7);
    for _ in 0..30 {
        let Some(r) = greedy.choose(&pos, &[], &Budget::depth(1)) else {
            break;
        };
        variant.play_unchecked(&mut pos, r.mv);
    }
    (variant, pos)
}

impl Search {
    /// Runs the search from scratch (a new table) on its position.
    pub fn run(
        &self,
        variant: &Variant,
        eval: &RaceEvaluator,
        pos: &Position,
    ) -> Option<SearchResult> {
        let budget = Budget::depth(self.depth);
        match self.kind {
            Kind::Pvs => Pvs::new(
                variant,
                eval,
                PvsOptions {
                    table_bits: Some(18),
                    repetitions: true,
                    selective: true,
                },
            )
            .choose(pos, &[], &budget),
            Kind::Brs => {
                Brs::new(variant, eval, MultiMode::BestReply, 18).choose(pos, &[], &budget)
            }
            Kind::Model => Brs::modelling(variant, eval, 18).choose(pos, &[], &budget),
            Kind::Mcts => {
                Mcts::new(variant, eval, MctsOptions::default(), 7).choose(pos, &[], &budget)
            }
        }
    }
}
