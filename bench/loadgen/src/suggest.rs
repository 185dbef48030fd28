//! The suggest scenario's pieces: its mid-game positions, the check of every answer, and the
//! tally of late answers and search statistics.
//!
//! The scenario is read-only: it asks `GET /v1/games/{id}/suggestion?level=10&time_ms=N` and
//! never plays the suggested move, so every game keeps the position (and version) it had when
//! the setup listed its legal moves, and each answer can be checked against that listing.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use crate::api::{Answer, GameView, Geometry, Http, LegalMoves, SetupError};
use crate::args::Args;
use crate::scenario::create_games;
use crate::stats::Recorder;

/// The level asked for: full strength, searching as deep as the time budget allows.
pub const LEVEL: u8 = 10;

/// The level of the service's fallback: when every search slot stays busy for the whole
/// budget, it answers in time with the one-ply move of level 4 (depth 1).
pub const FALLBACK_LEVEL: u8 = 4;

/// `200` answer to the suggestion request (the fields checked and reported). `depth` and
/// `nodes` are optional so that a server build without them can still be measured.
#[derive(Clone, Debug, Deserialize)]
pub struct SuggestionBody {
    /// The game's version the suggestion is for.
    pub version: u64,
    /// The seat it is for.
    pub seat: u8,
    /// Start cell.
    pub from: String,
    /// End cell.
    pub to: String,
    /// The move's path, start and end included.
    pub path: Vec<String>,
    /// The expected line, `from-to` moves starting with this one.
    #[serde(default)]
    pub principal_variation: Vec<String>,
    /// Depth of the last completed iteration.
    pub depth: Option<u32>,
    /// Positions searched.
    pub nodes: Option<u64>,
    /// The search's own time, in milliseconds.
    pub elapsed_ms: Option<u64>,
    /// The level used.
    pub level: u8,
    /// The budget the service used (the one asked, capped by its configuration).
    pub time_budget_ms: u32,
}

/// A game the scenario asks about, with what the answer must agree with.
#[derive(Clone, Debug)]
pub struct Target {
    /// The suggestion URL, query included.
    pub url: String,
    /// The game's version.
    pub version: u64,
    /// The seat to move.
    pub seat: u8,
    /// The legal moves, as (from, to) cell names.
    pub legal: HashSet<(String, String)>,
    /// The position, in the service's notation. The service shares one search among
    /// identical questions (the position and the positions before it, level and budget), so
    /// the different positions are a lower bound of the different questions.
    pub position: String,
}

/// How many different positions `targets` ask about.
pub fn distinct_positions(targets: &[Target]) -> usize {
    targets
        .iter()
        .map(|t| t.position.as_str())
        .collect::<HashSet<_>>()
        .len()
}

/// Creates `args.games` star games of `args.players` players, plays `args.suggest_plies`
/// plies into each and lists each game's legal moves and reads its position. Games that
/// ended on the way are left out.
///
/// # Errors
/// [`SetupError`] when the games cannot be created or listed, or none is left to ask about.
pub async fn prepare(
    args: &Args,
    geometry: &Arc<Geometry>,
    probe: &Http,
) -> Result<Vec<Target>, SetupError> {
    let ids = create_games(args, geometry, args.suggest_plies).await?;
    let mut targets = Vec::with_capacity(ids.len());
    let mut rec = Recorder::default();
    for id in ids {
        let url = probe.url(&format!("/v1/games/{id}/moves"));
        let listing = match probe.get_json::<LegalMoves>(&url, &mut rec).await {
            Some(Answer {
                body: Some(listing),
                ..
            }) => listing,
            Some(Answer { status, .. }) => {
                return Err(SetupError(format!(
                    "GET /v1/games/{id}/moves: status {status}"
                )))
            }
            None => return Err(SetupError(format!("GET /v1/games/{id}/moves: no answer"))),
        };
        let Some(seat) = listing.to_move.filter(|_| !listing.moves.is_empty()) else {
            continue;
        };
        let url = probe.url(&format!("/v1/games/{id}"));
        let position = match probe.get_json::<GameView>(&url, &mut rec).await {
            Some(Answer {
                body: Some(game), ..
            }) if game.version == listing.version => game.position,
            Some(Answer {
                body: Some(game), ..
            }) => {
                return Err(SetupError(format!(
                    "GET /v1/games/{id}: version {} where its moves were listed at {}",
                    game.version, listing.version
                )))
            }
            Some(Answer { status, .. }) => {
                return Err(SetupError(format!("GET /v1/games/{id}: status {status}")))
            }
            None => return Err(SetupError(format!("GET /v1/games/{id}: no answer"))),
        };
        targets.push(Target {
            url: probe.url(&format!(
                "/v1/games/{id}/suggestion?level={LEVEL}&time_ms={}",
                args.suggest_ms
            )),
            version: listing.version,
            seat,
            legal: listing.moves.into_iter().map(|m| (m.from, m.to)).collect(),
            position,
        });
    }
    if targets.is_empty() {
        return Err(SetupError(
            "every suggest game ended during the setup: lower --suggest-plies".into(),
        ));
    }
    Ok(targets)
}

/// Why an answer is not a suggestion for `target`, or `None` when it is one: the game's
/// version and seat, a legal move of the listing whose path runs from its start to its end,
/// a principal variation that starts with it, level 10 (or the one-ply fallback, level 4 at
/// depth 1) and a budget no larger than asked.
pub fn problem(body: &SuggestionBody, target: &Target, asked_ms: u32) -> Option<String> {
    let mv = format!("{}-{}", body.from, body.to);
    if body.version != target.version {
        Some(format!(
            "version {} instead of {}",
            body.version, target.version
        ))
    } else if body.seat != target.seat {
        Some(format!("seat {} instead of {}", body.seat, target.seat))
    } else if !target.legal.contains(&(body.from.clone(), body.to.clone())) {
        Some(format!("{mv} is not a legal move"))
    } else if body.path.len() < 2
        || body.path.first() != Some(&body.from)
        || body.path.last() != Some(&body.to)
    {
        Some(format!("path {:?} does not run {mv}", body.path))
    } else if body.principal_variation.first() != Some(&mv) {
        Some(format!(
            "principal variation {:?} does not start with {mv}",
            body.principal_variation
        ))
    } else if body.level != LEVEL && !is_fallback(body) {
        Some(format!("level {} instead of {LEVEL}", body.level))
    } else if body.time_budget_ms == 0 || body.time_budget_ms > asked_ms {
        Some(format!(
            "budget {} ms, {asked_ms} ms asked",
            body.time_budget_ms
        ))
    } else {
        None
    }
}

/// Whether the answer came from the service's one-ply fallback (no search slot in time).
fn is_fallback(body: &SuggestionBody) -> bool {
    body.level == FALLBACK_LEVEL && body.depth.is_none_or(|d| d == 1)
}

/// What one or more virtual users saw of the suggestions: late answers and the searches'
/// statistics.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Answers, any status.
    answers: u64,
    /// Answers later than the budget + 50 ms, and + 100 ms.
    over_50: u64,
    over_100: u64,
    /// Answers that passed the checks.
    good: u64,
    /// Good answers from the one-ply fallback (left out of the search statistics).
    fallbacks: u64,
    /// The budgets the service reported, smallest and largest.
    budget_min: Option<u32>,
    budget_max: Option<u32>,
    /// Sums and extremes over the good answers that carry them.
    depths: Stat,
    nodes: Stat,
    search_ms: Stat,
    /// The first failed check, for the report.
    first_problem: Option<String>,
}

/// Count, sum, smallest and largest of some values.
#[derive(Clone, Copy, Debug, Default)]
struct Stat {
    count: u64,
    sum: u64,
    min: u64,
    max: u64,
}

impl Stat {
    fn add(&mut self, value: u64) {
        if self.count == 0 || value < self.min {
            self.min = value;
        }
        self.max = self.max.max(value);
        self.count += 1;
        self.sum = self.sum.saturating_add(value);
    }

    fn merge(&mut self, other: Stat) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 || other.min < self.min {
            self.min = other.min;
        }
        self.max = self.max.max(other.max);
        self.count += other.count;
        self.sum = self.sum.saturating_add(other.sum);
    }

    fn mean(self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }
}

impl Tally {
    /// Takes in one answer for `target`: checks a `200` body (a failed check counts as
    /// unexpected in `rec`) and counts the answer late against the budget the service reported,
    /// or the one asked when the answer has none.
    pub fn observe(
        &mut self,
        answer: &Answer<SuggestionBody>,
        target: &Target,
        asked_ms: u32,
        rec: &mut Recorder,
    ) {
        self.answers += 1;
        let budget_ms = answer.body.as_ref().map_or(asked_ms, |b| b.time_budget_ms);
        let budget = Duration::from_millis(u64::from(budget_ms));
        if answer.latency > budget + Duration::from_millis(50) {
            self.over_50 += 1;
        }
        if answer.latency > budget + Duration::from_millis(100) {
            self.over_100 += 1;
        }
        let Some(body) = answer.body.as_ref() else {
            return;
        };
        if let Some(problem) = problem(body, target, asked_ms) {
            rec.unexpected();
            self.first_problem.get_or_insert(problem);
            return;
        }
        self.good += 1;
        self.budget_min = Some(self.budget_min.map_or(budget_ms, |b| b.min(budget_ms)));
        self.budget_max = Some(self.budget_max.map_or(budget_ms, |b| b.max(budget_ms)));
        if is_fallback(body) {
            self.fallbacks += 1;
            return;
        }
        if let Some(depth) = body.depth {
            self.depths.add(u64::from(depth));
        }
        if let Some(nodes) = body.nodes {
            self.nodes.add(nodes);
        }
        if let Some(ms) = body.elapsed_ms {
            self.search_ms.add(ms);
        }
    }

    /// Adds another tally's observations.
    pub fn merge(&mut self, other: Tally) {
        self.answers += other.answers;
        self.over_50 += other.over_50;
        self.over_100 += other.over_100;
        self.good += other.good;
        self.fallbacks += other.fallbacks;
        if let Some(b) = other.budget_min {
            self.budget_min = Some(self.budget_min.map_or(b, |m| m.min(b)));
        }
        if let Some(b) = other.budget_max {
            self.budget_max = Some(self.budget_max.map_or(b, |m| m.max(b)));
        }
        self.depths.merge(other.depths);
        self.nodes.merge(other.nodes);
        self.search_ms.merge(other.search_ms);
        if self.first_problem.is_none() {
            self.first_problem = other.first_problem;
        }
    }

    /// The figures, for `asked_ms`.
    pub fn summary(&self, asked_ms: u32) -> SuggestSummary {
        SuggestSummary {
            budget_ms: asked_ms,
            service_budget_ms: self.budget_min.zip(self.budget_max),
            answers: self.answers,
            good: self.good,
            fallbacks: self.fallbacks,
            over_budget_50ms: self.over_50,
            over_budget_100ms: self.over_100,
            mean_depth: self.depths.mean(),
            min_depth: (self.depths.count > 0).then_some(self.depths.min),
            max_depth: (self.depths.count > 0).then_some(self.depths.max),
            mean_nodes: self.nodes.mean(),
            mean_search_ms: self.search_ms.mean(),
            max_search_ms: (self.search_ms.count > 0).then_some(self.search_ms.max),
            first_problem: self.first_problem.clone(),
        }
    }
}

/// The suggest scenario's own figures, besides its latency row.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SuggestSummary {
    /// The `time_ms` asked.
    pub budget_ms: u32,
    /// The smallest and largest budget the service said it used.
    pub service_budget_ms: Option<(u32, u32)>,
    /// Answers, any status.
    pub answers: u64,
    /// Answers that passed every check.
    pub good: u64,
    /// Of those, answers from the one-ply fallback.
    pub fallbacks: u64,
    /// Answers later than their budget + 50 ms.
    pub over_budget_50ms: u64,
    /// Answers later than their budget + 100 ms.
    pub over_budget_100ms: u64,
    /// Mean depth of the last completed iteration.
    pub mean_depth: Option<f64>,
    /// Smallest depth.
    pub min_depth: Option<u64>,
    /// Largest depth.
    pub max_depth: Option<u64>,
    /// Mean positions searched.
    pub mean_nodes: Option<f64>,
    /// Mean search time the service reported, in milliseconds.
    pub mean_search_ms: Option<f64>,
    /// Longest search time the service reported.
    pub max_search_ms: Option<u64>,
    /// The first failed check, if any.
    pub first_problem: Option<String>,
}

impl SuggestSummary {
    /// The report's lines, without the scenario prefix.
    pub fn lines(&self) -> Vec<String> {
        let service = match self.service_budget_ms {
            Some((lo, hi)) if lo == hi => format!("{lo} ms"),
            Some((lo, hi)) => format!("{lo} to {hi} ms"),
            None => "not reported".to_owned(),
        };
        let mut lines = vec![format!(
            "budget {} ms (service: {service}): {} of {} answers over budget + 50 ms, {} over budget + 100 ms",
            self.budget_ms, self.over_budget_50ms, self.answers, self.over_budget_100ms
        )];
        let mut search = Vec::new();
        if let (Some(mean), Some(lo), Some(hi)) = (self.mean_depth, self.min_depth, self.max_depth)
        {
            search.push(format!("depth {mean:.2} on average ({lo} to {hi})"));
        }
        if let Some(nodes) = self.mean_nodes {
            search.push(format!("{nodes:.0} nodes on average"));
        }
        if let (Some(mean), Some(max)) = (self.mean_search_ms, self.max_search_ms) {
            search.push(format!(
                "search time {mean:.1} ms on average, {max} ms at most"
            ));
        }
        if !search.is_empty() {
            lines.push(format!(
                "search: {} ({} checked answers with a search)",
                search.join(", "),
                self.good - self.fallbacks
            ));
        }
        if self.fallbacks > 0 {
            lines.push(format!(
                "{} of {} checked answers came from the one-ply fallback (no search slot in time)",
                self.fallbacks, self.good
            ));
        }
        if let Some(problem) = &self.first_problem {
            lines.push(format!("first failed check: {problem}"));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Target {
        Target {
            url: String::new(),
            version: 41,
            seat: 1,
            legal: [("a1", "c3"), ("b2", "b4")]
                .iter()
                .map(|(f, t)| ((*f).to_owned(), (*t).to_owned()))
                .collect(),
            position: "star 2 - a1,b2/q1,q2 0".into(),
        }
    }

    #[test]
    fn distinct_positions_count_each_position_once() {
        let mut targets = vec![target(), target(), target()];
        assert_eq!(distinct_positions(&targets), 1);
        targets[2].position = "star 2 - a1,b4/q1,q2 1".into();
        assert_eq!(distinct_positions(&targets), 2);
        assert_eq!(distinct_positions(&[]), 0);
    }

    fn body() -> SuggestionBody {
        SuggestionBody {
            version: 41,
            seat: 1,
            from: "a1".into(),
            to: "c3".into(),
            path: vec!["a1".into(), "b2".into(), "c3".into()],
            principal_variation: vec!["a1-c3".into(), "x-y".into()],
            depth: Some(5),
            nodes: Some(1000),
            elapsed_ms: Some(199),
            level: LEVEL,
            time_budget_ms: 200,
        }
    }

    fn answer(ms: u64, body: Option<SuggestionBody>) -> Answer<SuggestionBody> {
        Answer {
            status: if body.is_some() { 200 } else { 503 },
            latency: Duration::from_millis(ms),
            body,
        }
    }

    #[test]
    fn checks_the_answer_against_the_listing() {
        let t = target();
        assert_eq!(problem(&body(), &t, 200), None);
        let bad: [fn(&mut SuggestionBody); 7] = [
            |b| b.version = 42,
            |b| b.seat = 0,
            |b| b.to = "b4".into(),
            |b| b.path = vec!["a1".into()],
            |b| b.principal_variation.clear(),
            |b| b.level = 9,
            |b| b.time_budget_ms = 201,
        ];
        for (i, spoil) in bad.iter().enumerate() {
            let mut b = body();
            spoil(&mut b);
            assert!(problem(&b, &t, 200).is_some(), "case {i}");
        }
    }

    #[test]
    fn one_ply_fallbacks_pass_and_are_counted_apart() {
        let t = target();
        let mut fallback = body();
        fallback.level = FALLBACK_LEVEL;
        fallback.depth = Some(1);
        assert_eq!(problem(&fallback, &t, 200), None);
        // Level 4 with a deeper search is not the fallback.
        let mut deep = fallback.clone();
        deep.depth = Some(3);
        assert!(problem(&deep, &t, 200).is_some());
        let mut rec = Recorder::default();
        let mut tally = Tally::default();
        tally.observe(&answer(150, Some(fallback)), &t, 200, &mut rec);
        tally.observe(&answer(150, Some(body())), &t, 200, &mut rec);
        let s = tally.summary(200);
        assert_eq!((s.good, s.fallbacks), (2, 1));
        // Only the real search is in the search statistics.
        assert_eq!((s.min_depth, s.max_depth), (Some(5), Some(5)));
    }

    #[test]
    fn counts_late_answers_and_averages_the_searches() {
        let t = target();
        let mut rec = Recorder::default();
        let mut a = Tally::default();
        let mut b = Tally::default();
        a.observe(&answer(240, Some(body())), &t, 200, &mut rec);
        a.observe(&answer(260, Some(body())), &t, 200, &mut rec);
        let mut deeper = body();
        deeper.depth = Some(7);
        deeper.nodes = Some(3000);
        b.observe(&answer(301, Some(deeper)), &t, 200, &mut rec);
        // An error answer is late against the budget asked, and has no statistics.
        b.observe(&answer(400, None), &t, 200, &mut rec);
        let mut wrong = body();
        wrong.seat = 0;
        b.observe(&answer(10, Some(wrong)), &t, 200, &mut rec);
        a.merge(b);
        let s = a.summary(200);
        assert_eq!((s.answers, s.good), (5, 3));
        assert_eq!((s.over_budget_50ms, s.over_budget_100ms), (3, 2));
        assert_eq!(s.service_budget_ms, Some((200, 200)));
        assert_eq!((s.min_depth, s.max_depth), (Some(5), Some(7)));
        assert!((s.mean_depth.unwrap_or_default() - 17.0 / 3.0).abs() < 1e-9);
        assert!((s.mean_nodes.unwrap_or_default() - 5000.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.first_problem.as_deref(), Some("seat 0 instead of 1"));
        let lines = s.lines();
        assert!(lines[0].contains("3 of 5 answers over budget + 50 ms, 2 over budget + 100 ms"));
        assert!(lines[1].starts_with("search: depth 5.67 on average (5 to 7)"));
    }
}
