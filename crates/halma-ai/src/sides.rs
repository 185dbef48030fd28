//! Sides of a game as the search sees them: ranking units (a player, or a team of partners),
//! which units are still playing, whether the game is over, and turn handling helpers.

use halma_rules::{Move, Position, Seat, Variant, MAX_SEATS};

/// The ranking units of a variant: each seat's unit, and the seats of each unit.
#[derive(Clone, Debug)]
pub struct Sides {
    unit_of: [u8; MAX_SEATS],
    /// Bit mask of seats per unit.
    seats_of: [u8; MAX_SEATS],
    units: u8,
    players: u8,
    play_on: bool,
    seat_list: Vec<Seat>,
}

impl Sides {
    /// The units of `variant` (one per player, or one per team).
    #[must_use]
    pub fn new(variant: &Variant) -> Sides {
        let mut unit_of = [0u8; MAX_SEATS];
        let mut seats_of = [0u8; MAX_SEATS];
        let mut units = 0u8;
        for seat in variant.seats() {
            let lead = variant.unit(seat).next().unwrap_or(seat);
            let u = if lead == seat {
                units += 1;
                units - 1
            } else {
                unit_of[usize::from(lead.index())]
            };
            unit_of[usize::from(seat.index())] = u;
            seats_of[usize::from(u)] |= 1 << seat.index();
        }
        Sides {
            unit_of,
            seats_of,
            units,
            players: variant.players(),
            play_on: variant.options().play_on,
            seat_list: variant.seats().collect(),
        }
    }

    /// Number of units (2 in a two-player or a four-player team game).
    #[must_use]
    pub fn units(&self) -> u8 {
        self.units
    }

    /// The unit of a seat.
    #[must_use]
    pub fn unit(&self, seat: Seat) -> u8 {
        self.unit_of[usize::from(seat.index())]
    }

    /// The seats of a unit, as seat numbers.
    pub fn seats(&self, unit: u8) -> impl Iterator<Item = u8> + '_ {
        let mask = self.seats_of[usize::from(unit)];
        (0..self.players).filter(move |s| mask & (1 << s) != 0)
    }

    /// Whether every seat of the unit filled its goals.
    #[must_use]
    pub fn finished(&self, pos: &Position, unit: u8) -> bool {
        self.seat_list(unit).all(|s| pos.is_finished(s))
    }

    /// Whether the unit lost by the leave-home rule.
    #[must_use]
    pub fn eliminated(&self, pos: &Position, unit: u8) -> bool {
        self.seat_list(unit).any(|s| pos.is_eliminated(s))
    }

    /// Whether the unit still plays (neither finished nor eliminated).
    #[must_use]
    pub fn alive(&self, pos: &Position, unit: u8) -> bool {
        !self.finished(pos, unit) && !self.eliminated(pos, unit)
    }

    /// Whether the game is over by its standings (as [`halma_rules::Game`] decides it): at most
    /// one unit left, or a unit finished when the others do not play on.
    #[must_use]
    pub fn game_over(&self, pos: &Position) -> bool {
        // The standings of every seat read once, as bit masks by seat number.
        let (mut finished, mut out) = (0u8, 0u8);
        for (i, &s) in self.seat_list.iter().enumerate() {
            finished |= u8::from(pos.is_finished(s)) << i;
            out |= u8::from(pos.is_eliminated(s)) << i;
        }
        let mut alive = 0;
        let mut any_finished = false;
        for &seats in &self.seats_of[..usize::from(self.units)] {
            let unit_finished = seats & !finished == 0;
            any_finished |= unit_finished;
            alive += usize::from(!unit_finished && seats & out == 0);
        }
        alive <= 1 || (!self.play_on && any_finished)
    }

    fn seat_list(&self, unit: u8) -> impl Iterator<Item = Seat> + '_ {
        let mut mask = self.seats_of[usize::from(unit)];
        std::iter::from_fn(move || {
            let s = mask.trailing_zeros() as usize;
            mask &= mask.wrapping_sub(1);
            self.seat_list.get(s).copied()
        })
    }

    /// The seat with number `s` (`s` below the player count).
    #[must_use]
    pub fn seat(&self, s: u8) -> Seat {
        self.seat_list[usize::from(s)]
    }

    /// All seats in turn order.
    #[must_use]
    pub fn all_seats(&self) -> &[Seat] {
        &self.seat_list
    }
}

/// Passes turns until `seat` is to move. Returns `false` (leaving `pos` unchanged) when the
/// seat no longer takes turns.
pub(crate) fn set_turn(variant: &Variant, pos: &mut Position, seat: Seat) -> bool {
    if !pos.is_active(seat) {
        return false;
    }
    let mut p = *pos;
    for _ in 0..variant.players() {
        if p.to_move() == seat {
            *pos = p;
            return true;
        }
        variant.pass(&mut p);
    }
    false
}

/// Packs a move into 16 bits (from, to) for tables.
#[inline]
#[must_use]
pub(crate) fn pack(mv: Move) -> u16 {
    (u16::from(mv.from.index()) << 8) | u16::from(mv.to.index())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly on setup errors
    use super::*;
    use halma_rules::{BoardKind, GameSetup, RuleOptions};

    #[test]
    fn units_follow_teams() {
        let setup = |players, teams| GameSetup {
            board: BoardKind::Star,
            players,
            options: RuleOptions {
                teams: Some(teams),
                ..RuleOptions::default()
            },
        };
        let v = Variant::new(&setup(6, true)).unwrap();
        let s = Sides::new(&v);
        assert_eq!(s.units(), 3);
        assert_eq!(s.unit(s.seat(0)), s.unit(s.seat(3)));
        assert_ne!(s.unit(s.seat(0)), s.unit(s.seat(1)));
        let v = Variant::new(&setup(4, false)).unwrap();
        assert_eq!(Sides::new(&v).units(), 4);
        let v = Variant::new(&setup(4, true)).unwrap();
        let s = Sides::new(&v);
        assert_eq!(s.units(), 2);
        assert_eq!(s.seats(s.unit(s.seat(1))).collect::<Vec<_>>(), vec![1, 3]);
        let mut pos = Position::start(&v, s.seat(0));
        assert!(set_turn(&v, &mut pos, s.seat(2)));
        assert_eq!(pos.to_move(), s.seat(2));
        assert!(!s.game_over(&pos));
    }

    /// `game_over` reads the standings as seat masks: it agrees with the definition by units
    /// for every combination of finished and eliminated seats, with and without teams and
    /// playing on.
    #[test]
    fn game_over_follows_the_units() {
        for (players, options) in [
            (3, "-"),
            (4, "teams=1"),
            (6, "teams=1"),
            (6, "play_on=1"),
            (6, "-"),
        ] {
            let text = |marks: &[&str]| {
                let v = Variant::new(&GameSetup {
                    board: BoardKind::Star,
                    players,
                    options: RuleOptions::default(),
                })
                .unwrap();
                let start = halma_rules::notation::format_position(
                    &v,
                    &Position::start(&v, v.seat(0).unwrap()),
                );
                let (head, _) = start.rsplit_once(' ').unwrap();
                let head = head.replacen(
                    &format!("star {players} -"),
                    &format!("star {players} {options}"),
                    1,
                );
                format!("{head} {}", marks.join(","))
            };
            let n = usize::from(players);
            let mut checked = 0;
            for code in 0..3usize.pow(u32::from(players)) {
                let marks: Vec<&str> = (0..n)
                    .map(|i| ["0", "0f", "0x"][code / 3usize.pow(i as u32) % 3])
                    .collect();
                let Ok((v, pos)) = halma_rules::notation::parse_position(&text(&marks)) else {
                    continue;
                };
                let s = Sides::new(&v);
                let alive = (0..s.units()).filter(|&u| s.alive(&pos, u)).count();
                let plain = alive <= 1
                    || (!v.options().play_on && (0..s.units()).any(|u| s.finished(&pos, u)));
                assert_eq!(s.game_over(&pos), plain, "{}", text(&marks));
                checked += 1;
            }
            assert!(
                checked >= 3usize.pow(u32::from(players)) / 2,
                "{players} {options}: {checked} parsed"
            );
        }
    }
}
