//! Candidates: several replies sampled per attempt, judged by the same gates, the winner chosen
//! by the tests (after Agentless: sample, filter by the guards, run the tests, prefer the
//! majority's diff, then the smallest).
//!
//! The pure parts live here: the temperature schedule, the normalised diff that makes two
//! candidates the same, the order in which survivors meet the toolchain, and the ranking of a
//! rejected attempt's candidates for the next attempt's feedback.

use std::time::Duration;

use slopguard_change::ChangeSet;

/// How many candidates an attempt samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CandidateCount {
    /// Exactly this many (fewer only when the subtask budget runs out).
    Fixed(u32),
    /// As many as the model's speed lets fit in the attempt's share of the subtask budget,
    /// between [`AUTO_MIN`] and [`AUTO_MAX`].
    Auto,
}

/// Fewest candidates per attempt with [`CandidateCount::Auto`].
pub const AUTO_MIN: u32 = 2;
/// Most candidates per attempt with [`CandidateCount::Auto`].
pub const AUTO_MAX: u32 = 12;

impl std::str::FromStr for CandidateCount {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "auto" => Ok(CandidateCount::Auto),
            n => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .map(CandidateCount::Fixed)
                .ok_or_else(|| {
                    format!("`{s}` is not a number of candidates (1 or more) or `auto`")
                }),
        }
    }
}

/// The clock of one attempt, for deciding whether another candidate may start.
#[derive(Debug, Clone, Copy)]
pub struct AttemptClock {
    /// Time spent in this attempt so far.
    pub elapsed: Duration,
    /// The attempt's share of the subtask budget.
    pub share: Duration,
    /// What is left of the subtask budget.
    pub subtask_left: Duration,
    /// How long the last model call took (zero before the first).
    pub last_call: Duration,
}

/// Whether candidate `index` (0-based) may start: the first always does; no candidate starts
/// when the subtask budget cannot pay for another call as long as the last; with
/// [`CandidateCount::Auto`], the next starts while it fits in the attempt's share.
pub fn may_sample(count: CandidateCount, index: u32, clock: AttemptClock) -> bool {
    if index == 0 {
        return true;
    }
    if clock.subtask_left < clock.last_call {
        return false;
    }
    match count {
        CandidateCount::Fixed(k) => index < k,
        CandidateCount::Auto => {
            index < AUTO_MIN || (index < AUTO_MAX && clock.elapsed + clock.last_call <= clock.share)
        }
    }
}

/// The share of the subtask budget attempt `attempt` (1-based) of `max_attempts` may spend:
/// what is left of the budget when it starts (`budget` less `spent_before`), split evenly over
/// it and the attempts after it. Time an earlier attempt did not use goes to the later ones,
/// and the last attempt may use all that is left (a slow model's attempts end early, when the
/// next reply would not fit; an even split of the whole budget left a third of it unused).
pub fn attempt_share(
    budget: Duration,
    spent_before: Duration,
    attempt: u32,
    max_attempts: u32,
) -> Duration {
    let attempts_left = max_attempts
        .max(1)
        .saturating_sub(attempt.saturating_sub(1))
        .max(1);
    budget.saturating_sub(spent_before) / attempts_left
}

/// Temperatures of an attempt's candidates: the first candidate of the first attempt is nearly
/// greedy, every later one hotter, so a retry cannot repeat a rejected reply word for word.
pub fn temperature(attempt: u32, index: u32) -> f32 {
    const SCHEDULE: [f32; 6] = [0.2, 0.7, 0.9, 1.0, 1.1, 1.2];
    let step = (attempt.saturating_sub(1) + index) as usize;
    SCHEDULE[step.min(SCHEDULE.len() - 1)]
}

/// The hottest a candidate of a focused prompt (one statement offered as the wrong one) is
/// sampled: its answer is a line, and a small model at 1.0+ writes noise there, while at 0.8
/// it still varies the line (BENCHMARKS.md, the model probe).
pub const FOCUSED_MAX_TEMPERATURE: f32 = 0.8;

/// [`temperature`], capped at [`FOCUSED_MAX_TEMPERATURE`] for a focused prompt's candidate.
pub fn temperature_for(attempt: u32, index: u32, focused: bool) -> f32 {
    let t = temperature(attempt, index);
    if focused {
        t.min(FOCUSED_MAX_TEMPERATURE)
    } else {
        t
    }
}

/// A seed per (run, subtask, attempt, candidate), so repetitions of a run differ only where
/// the run id does.
pub fn seed(run_id: &str, subtask: &str, attempt: u32, index: u32) -> u64 {
    // FNV-1a: stable across platforms and releases, unlike the std hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in run_id
        .bytes()
        .chain(subtask.bytes())
        .chain(attempt.to_le_bytes())
        .chain(index.to_le_bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h & 0x7fff_ffff
}

/// The change with whitespace at line ends and blank lines ignored: two candidates with the
/// same key are the same patch (and vote for it).
pub fn normalised_key(change: &ChangeSet) -> String {
    let mut key = String::new();
    for c in &change.changes {
        key.push_str(&c.path);
        key.push('\0');
        match &c.after {
            Some(bytes) => {
                for line in slopguard_worker::significant_lines(&String::from_utf8_lossy(bytes)) {
                    key.push_str(line);
                    key.push('\n');
                }
            }
            None => key.push_str("<deleted>"),
        }
        key.push('\0');
    }
    key
}

/// Lines the change adds or removes (its size, for preferring the smallest patch).
pub fn changed_lines(change: &ChangeSet) -> usize {
    change
        .changes
        .iter()
        .map(|c| {
            let before = c
                .before
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default();
            let after = c
                .after
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default();
            let old: std::collections::HashMap<&str, usize> =
                before.lines().fold(Default::default(), |mut m, l| {
                    *m.entry(l).or_default() += 1;
                    m
                });
            let mut left = old.clone();
            let mut added = 0;
            for l in after.lines() {
                match left.get_mut(l) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => added += 1,
                }
            }
            added + left.values().sum::<usize>()
        })
        .sum()
}

/// How far a rejected candidate got, for choosing whose findings the next attempt sees: the
/// one that got furthest (its tests ran after the patch) says the most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reached {
    /// The model call failed or the reply was cut off.
    Model,
    /// The reply could not become a change.
    Apply,
    /// A static guard blocked it.
    StaticGates,
    /// A model-backed gate (a critic) refused it.
    Review,
    /// The build or the tests blocked it.
    DynamicGates,
    /// Every gate passed but the failing tests still fail.
    Tests,
}

/// Order in which the survivors meet the toolchain: most votes first, then the smallest.
/// `(index, votes, size)` in, indexes out.
pub fn evaluation_order(survivors: &[(usize, u32, usize)]) -> Vec<usize> {
    let mut v = survivors.to_vec();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
    v.into_iter().map(|(i, _, _)| i).collect()
}

/// One line saying what a rejected reply did, so the retry knows what not to send again.
pub fn describe_change(change: &ChangeSet) -> String {
    let files: Vec<String> = change
        .changes
        .iter()
        .map(|c| format!("{} ({})", c.path, c.kind.name()))
        .collect();
    format!(
        "Your answer changed {} ({} lines).",
        files.join(", "),
        changed_lines(change)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::{FileChange, MemTree};
    use std::sync::Arc;

    fn set(before: &str, after: &str) -> ChangeSet {
        ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![FileChange::modify("a.py", before, after)],
            "t",
        )
    }

    #[test]
    fn retries_are_hotter() {
        assert!(temperature(1, 0) < temperature(1, 1));
        assert!(temperature(1, 0) < temperature(2, 0));
        assert_eq!(temperature(9, 9), 1.2);
        assert_eq!(temperature_for(9, 9, true), FOCUSED_MAX_TEMPERATURE);
        assert_eq!(temperature_for(1, 0, true), temperature(1, 0));
        assert_eq!(temperature_for(9, 9, false), 1.2);
        assert_ne!(seed("r", "s", 1, 0), seed("r", "s", 1, 1));
        assert_eq!(seed("r", "s", 1, 0), seed("r", "s", 1, 0));
    }

    #[test]
    fn same_patch_modulo_trailing_space_has_one_key() {
        let a = set("x = 1\n", "x = 2\n");
        let b = set("x = 1\n", "x = 2   \n\n");
        let c = set("x = 1\n", "x = 3\n");
        assert_eq!(normalised_key(&a), normalised_key(&b));
        assert_ne!(normalised_key(&a), normalised_key(&c));
        assert_eq!(changed_lines(&a), 2);
    }

    #[test]
    fn candidate_counts() {
        let s = |secs: u64| Duration::from_secs(secs);
        let clock = |elapsed, last| AttemptClock {
            elapsed: s(elapsed),
            share: s(200),
            subtask_left: s(600 - elapsed),
            last_call: s(last),
        };
        assert_eq!("auto".parse(), Ok(CandidateCount::Auto));
        assert_eq!("3".parse(), Ok(CandidateCount::Fixed(3)));
        assert!("0".parse::<CandidateCount>().is_err());
        assert!(may_sample(CandidateCount::Fixed(3), 2, clock(10, 5)));
        assert!(!may_sample(CandidateCount::Fixed(3), 3, clock(10, 5)));
        // Auto: a fast model gets up to AUTO_MAX, a slow one AUTO_MIN.
        assert!(may_sample(
            CandidateCount::Auto,
            AUTO_MAX - 1,
            clock(110, 10)
        ));
        assert!(!may_sample(CandidateCount::Auto, AUTO_MAX, clock(120, 10)));
        assert!(may_sample(CandidateCount::Auto, 1, clock(150, 150)));
        assert!(!may_sample(CandidateCount::Auto, 2, clock(150, 150)));
        // The subtask budget stops everything but the first.
        let spent = AttemptClock {
            subtask_left: s(1),
            ..clock(10, 5)
        };
        assert!(!may_sample(CandidateCount::Fixed(3), 1, spent));
        assert!(may_sample(CandidateCount::Fixed(3), 0, spent));
    }

    #[test]
    fn time_an_attempt_leaves_goes_to_the_next_and_the_last_gets_the_rest() {
        let s = Duration::from_secs;
        assert_eq!(attempt_share(s(600), s(0), 1, 3), s(200));
        // Attempt 1 ended at 120 s: the other two split the 480 s left.
        assert_eq!(attempt_share(s(600), s(120), 2, 3), s(240));
        assert_eq!(attempt_share(s(600), s(336), 3, 3), s(264));
        // Spent, more attempts than planned, or none planned: never a panic.
        assert_eq!(attempt_share(s(600), s(700), 3, 3), s(0));
        assert_eq!(attempt_share(s(600), s(300), 5, 3), s(300));
        assert_eq!(attempt_share(s(600), s(0), 1, 0), s(600));
    }

    #[test]
    fn majority_then_smallest() {
        assert_eq!(
            evaluation_order(&[(0, 1, 2), (1, 2, 9), (2, 1, 1)]),
            vec![1, 2, 0]
        );
    }
}
