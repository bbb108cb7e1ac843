//! The game schedule of a match: head-to-head, round robin or gauntlet; rounds, games
//! per encounter, openings repeated with colours swapped. The tournament plays it and
//! the standings count its encounters.

use super::options::Kind;

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct Job {
    pub number: u32,
    pub round: u32,
    pub white: usize,
    pub black: usize,
    /// Which opening of the sequence to use; games sharing it form a pair.
    pub opening_seq: usize,
}

/// The encounters: every pair of engines, or the first engine against each other one.
pub fn pairings(n: usize, kind: Kind) -> Vec<(usize, usize)> {
    match kind {
        Kind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Kind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// The full schedule in playing order.
pub fn schedule(n_engines: usize, kind: Kind, rounds: u32, games: u32, repeat: bool) -> Vec<Job> {
    let pairs = pairings(n_engines, kind);
    let per_round = if repeat { games.div_ceil(2) } else { games } as usize;
    let mut jobs = Vec::new();
    for round in 0..rounds {
        for &(a, b) in &pairs {
            for g in 0..games {
                let seq = round as usize * per_round + if repeat { g / 2 } else { g } as usize;
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() as u32 + 1,
                    round: round + 1,
                    white,
                    black,
                    opening_seq: seq,
                });
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_with_repeat_pairs_openings_and_swaps_colours() {
        let jobs = schedule(2, Kind::RoundRobin, 3, 2, true);
        assert_eq!(jobs.len(), 6);
        let seen: Vec<(usize, usize, usize)> = jobs
            .iter()
            .map(|j| (j.white, j.black, j.opening_seq))
            .collect();
        assert_eq!(
            seen,
            [
                (0, 1, 0),
                (1, 0, 0),
                (0, 1, 1),
                (1, 0, 1),
                (0, 1, 2),
                (1, 0, 2)
            ]
        );
        let numbers: Vec<u32> = jobs.iter().map(|j| j.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn without_repeat_every_game_has_its_own_opening() {
        let jobs = schedule(2, Kind::RoundRobin, 2, 2, false);
        let seqs: Vec<usize> = jobs.iter().map(|j| j.opening_seq).collect();
        assert_eq!(seqs, [0, 1, 2, 3]);
    }

    #[test]
    fn gauntlet_and_round_robin() {
        assert_eq!(pairings(4, Kind::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            pairings(4, Kind::RoundRobin),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        // A gauntlet round shares its opening across opponents.
        let jobs = schedule(3, Kind::Gauntlet, 1, 2, true);
        assert!(jobs.iter().all(|j| j.opening_seq == 0));
        assert!(jobs.iter().all(|j| j.white == 0 || j.black == 0));
    }
}
