//! Rules: one module per game behind one small interface, [`Rules`]. A rule engine
//! reads a shot's facts (first contact, cushion contacts by ball, pocketings, in time
//! order) and the game's state, and returns the judgement: the verdict (legal, or the
//! foul and the rule it breaks), the score change, the next state (next player, ball
//! in hand and where, game over and the winner) and the balls to put back on the table.
//! It never simulates. Adding a game is adding a module.
//!
//! The rules are the governing bodies' texts in our words: WPA World Standardized
//! Rules (eight-ball, nine-ball, ten-ball, and their standard fouls 6.1 to 6.3 and the
//! serious foul 7.1), UMB three-cushion, WPBSA snooker, and pooltool's sum-to-three.
//! What each leaves out is in `docs/games.md`.

pub mod eight_ball;
pub mod nine_ball;
pub mod snooker;
pub mod sum_to_three;
pub mod ten_ball;
pub mod three_cushion;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::setups::GameKind;
use crate::shot::Facts;
use crate::tables::Table;

/// Ball numbers, inline up to a full snooker table (15 reds and 6 colours): a state
/// and a judgement are then plain values, copied for every shot of a batch without
/// allocating. More spill to the heap (a game file may list any number; the game's
/// checks refuse them).
pub type Numbers = SmallVec<[u32; 22]>;

/// The choices on offer: at most three at once under these rules.
pub type Choices = SmallVec<[Choice; 4]>;

/// Where a player with ball in hand may put the cue ball.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Anywhere on the playing surface.
    Anywhere,
    /// Pool: on or behind the head string (the break).
    BehindHeadString,
    /// Snooker: in the D.
    InD,
}

/// A foul: the rule it breaks (`"WPA 6.2 wrong ball first"`) and what happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Foul {
    pub rule: String,
    pub what: String,
}

impl std::fmt::Display for Foul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "foul ({}): {}", self.rule, self.what)
    }
}

fn foul(rule: &str, what: impl Into<String>) -> Option<Foul> {
    Some(Foul {
        rule: rule.to_string(),
        what: what.into(),
    })
}

/// What a shooter announces where the rules ask: a ball into a pocket (its index in
/// the table's pockets), a safety (ten-ball), or a push-out (the shot after the break
/// in nine-ball and ten-ball).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    Pot { ball: u32, pocket: u32 },
    Safety,
    PushOut,
}

/// A choice the rules give the player to move, besides shooting (`Game::options`,
/// `Game::choose`). Shooting without choosing takes the table as it lies (`Accept`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// Nine- and ten-ball, the shot after the break: it is a push-out.
    PushOut,
    /// Take the table as it lies and shoot (play on).
    Accept,
    /// Hand the shot back: the other player shoots from here (after a push-out, a
    /// ten-ball shot whose call failed, a snooker foul).
    PassBack,
    /// Eight-ball: the balls re-racked, the chooser breaks.
    Rerack,
    /// Eight-ball after an illegal break: the balls re-racked, the offender breaks
    /// again.
    RerackOffender,
    /// Snooker after a foul that leaves the cue ball snookered: the next shot plays a
    /// free ball (any ball nominated as the ball on).
    FreeBall,
    /// Snooker after a foul and a miss: the balls put back where they were before it,
    /// the offender to play again.
    Replace,
}

impl Choice {
    pub const ALL: [Choice; 7] = [
        Choice::PushOut,
        Choice::Accept,
        Choice::PassBack,
        Choice::Rerack,
        Choice::RerackOffender,
        Choice::FreeBall,
        Choice::Replace,
    ];

    /// The choice's name on the command line, in Python and in game files.
    pub fn name(self) -> &'static str {
        match self {
            Choice::PushOut => "push-out",
            Choice::Accept => "accept",
            Choice::PassBack => "pass-back",
            Choice::Rerack => "re-rack",
            Choice::RerackOffender => "re-rack-offender",
            Choice::FreeBall => "free-ball",
            Choice::Replace => "replace",
        }
    }

    /// The choice of a name; the error is one line listing the names.
    pub fn parse(name: &str) -> Result<Choice, String> {
        Choice::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Choice::ALL.iter().map(|c| c.name()).collect();
                format!("{name:?} is no choice (choices: {})", names.join(", "))
            })
    }

    /// Whether `game`'s rules ever offer this choice.
    pub fn in_game(self, game: GameKind) -> bool {
        match self {
            Choice::PushOut => matches!(game, GameKind::NineBall | GameKind::TenBall),
            Choice::Accept => game.is_pool() || game == GameKind::Snooker,
            Choice::PassBack => {
                matches!(
                    game,
                    GameKind::NineBall | GameKind::TenBall | GameKind::Snooker
                )
            }
            Choice::Rerack | Choice::RerackOffender => game == GameKind::EightBall,
            Choice::FreeBall | Choice::Replace => game == GameKind::Snooker,
        }
    }
}

/// The names of some choices, comma-separated (`none` for none).
pub fn choice_names(choices: &[Choice]) -> String {
    if choices.is_empty() {
        return "none".into();
    }
    let v: Vec<&str> = choices.iter().map(|c| c.name()).collect();
    v.join(", ")
}

/// The position before a shot, kept while the incoming player may have it restored
/// (snooker's miss).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Before {
    pub state: State,
    pub balls: Vec<(u32, [f64; 2])>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Eight-ball's groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    Solids,
    Stripes,
}

impl Group {
    pub fn has(self, n: u32) -> bool {
        match self {
            Group::Solids => (1..=7).contains(&n),
            Group::Stripes => (9..=15).contains(&n),
        }
    }

    pub fn other(self) -> Group {
        match self {
            Group::Solids => Group::Stripes,
            Group::Stripes => Group::Solids,
        }
    }
}

/// Snooker's ball on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum On {
    /// A red.
    Red,
    /// Any colour (after a red was potted).
    Colour,
    /// The colours in order once the reds are gone: the ball numbered here (16 yellow
    /// ... 21 black).
    Next(u32),
}

/// A game's state between shots: everything the rules need besides the shot's facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub game: GameKind,
    /// The player to shoot, 0 or 1.
    pub player: usize,
    pub scores: [i64; 2],
    /// The player to shoot has the cue ball in hand, to place here.
    pub ball_in_hand: Option<Placement>,
    /// Each player's successive fouls.
    pub fouls: [u32; 2],
    /// Turns at the table so far, counting from 1 (the breaker's first).
    pub inning: u32,
    /// Shots played in the game so far (0: the next is the break).
    pub shots: u32,
    /// The object balls on the table (the cue ball not counted).
    pub on_table: Numbers,
    /// Eight-ball: each player's group once the table is closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<[Group; 2]>,
    /// Nine- and ten-ball: the next shot may be a push-out.
    #[serde(default)]
    pub push_out: bool,
    /// Snooker: the ball on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<On>,
    /// Three-cushion and sum-to-three: the score that wins.
    #[serde(default)]
    pub target: i64,
    /// The choices the player to move has besides shooting (a push-out is offered by
    /// `push_out` instead).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub options: Choices,
    /// A choice taken for the next shot: a push-out, or snooker's free ball.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<Choice>,
    /// Snooker after a miss: the position before it, which [`Choice::Replace`]
    /// restores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Box<Before>>,
    /// Three-cushion: the match is played with the equalising inning.
    #[serde(default, skip_serializing_if = "is_false")]
    pub equalising: bool,
    /// Three-cushion: the inning being played is the second player's equalising
    /// inning (the first player has reached the target).
    #[serde(default, skip_serializing_if = "is_false")]
    pub last_inning: bool,
    pub over: bool,
    /// `None` while the game goes on, or at its end a draw.
    pub winner: Option<usize>,
}

impl State {
    /// The start of a game whose object balls are `on_table`, the breaker to shoot.
    pub fn start(game: GameKind, on_table: Vec<u32>) -> State {
        let mut s = State {
            game,
            player: 0,
            scores: [0, 0],
            ball_in_hand: None,
            fouls: [0, 0],
            inning: 1,
            shots: 0,
            on_table: Numbers::from_slice(&on_table),
            groups: None,
            push_out: false,
            on: None,
            target: 0,
            options: Choices::new(),
            chosen: None,
            before: None,
            equalising: false,
            last_inning: false,
            over: false,
            winner: None,
        };
        match game {
            GameKind::EightBall | GameKind::NineBall | GameKind::TenBall => {
                s.ball_in_hand = Some(Placement::BehindHeadString)
            }
            GameKind::Snooker => {
                s.ball_in_hand = Some(Placement::InD);
                s.on = Some(On::Red);
            }
            GameKind::ThreeCushion => {
                s.target = three_cushion::TARGET;
                s.equalising = true;
            }
            GameKind::SumToThree => s.target = sum_to_three::TARGET,
        }
        s
    }

    /// The lowest-numbered object ball on the table.
    pub fn lowest(&self) -> Option<u32> {
        self.on_table.iter().copied().min()
    }

    /// The other player.
    pub fn opponent(&self) -> usize {
        1 - self.player
    }
}

/// The judgement of one shot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// `None`: the shot was legal.
    pub foul: Option<Foul>,
    /// Points each player gained.
    pub points: [i64; 2],
    /// Whether the shooter's turn ended.
    pub turn_over: bool,
    /// Balls to put back on the table (their spots), in this order.
    pub respot: Numbers,
    /// The state after the shot.
    pub state: State,
}

/// A rule set.
pub trait Rules {
    /// Whether the shot about to be played needs a [`Call`] (and of which kind the
    /// message says), `Err` naming the call's problem when the given one will not do.
    fn check_call(&self, state: &State, call: Option<Call>) -> Result<(), String>;

    /// Judges a shot from its facts and the state before it.
    fn judge(&self, state: &State, facts: &Facts, call: Option<Call>) -> Judgement;

    /// The part of the judgement that reads the table itself (where the balls lay
    /// before the shot, `before`, and lie after it with the balls put back, `after`):
    /// snooker's miss, free ball and snookering with the free ball. It never
    /// simulates. By default nothing.
    fn judge_table(&self, _: &TableView<'_>, _: &State, _: &mut Judgement) {}

    /// The object balls the cue ball may meet first on the next shot without a foul,
    /// ascending (for a player searching shots). By default every object ball on the
    /// table.
    fn first_contacts(&self, state: &State) -> Vec<u32> {
        let mut v = state.on_table.to_vec();
        v.sort_unstable();
        v
    }
}

/// The table around a shot, for [`Rules::judge_table`].
pub struct TableView<'a> {
    pub table: &'a Table,
    pub facts: &'a Facts,
    /// The balls before the shot (the cue ball first).
    pub before: &'a [(u32, [f64; 2])],
    /// The balls after it, those put back included.
    pub after: &'a [(u32, [f64; 2])],
}

/// The rule set of a game.
pub fn rules(game: GameKind) -> &'static dyn Rules {
    match game {
        GameKind::EightBall => &eight_ball::EightBall,
        GameKind::NineBall => &nine_ball::NineBall,
        GameKind::TenBall => &ten_ball::TenBall,
        GameKind::Snooker => &snooker::Snooker,
        GameKind::ThreeCushion => &three_cushion::ThreeCushion,
        GameKind::SumToThree => &sum_to_three::SumToThree,
    }
}

/// The WPA's standard fouls every pool game shares, in the order the rules list
/// them: the cue ball pocketed (6.1), no ball or a wrong ball first (6.2; `legal`
/// says which balls may be first), no rail after contact when nothing was pocketed
/// (6.3).
pub(crate) fn wpa_standard_fouls(facts: &Facts, legal: impl Fn(u32) -> bool) -> Option<Foul> {
    if facts.is_pocketed(0) {
        return foul("WPA 6.1 cue ball scratch", "the cue ball was pocketed");
    }
    let Some(first) = facts.first_contact else {
        return foul(
            "WPA 6.2 wrong ball first",
            "the cue ball met no object ball",
        );
    };
    if !legal(first) {
        return foul(
            "WPA 6.2 wrong ball first",
            format!("the cue ball met the {first} first"),
        );
    }
    let pocketed_object = facts.pocketed.iter().any(|p| p.1 != 0);
    let t = facts.first_contact_time().unwrap_or(0.0);
    if !pocketed_object && !facts.cushion_after(t) {
        return foul(
            "WPA 6.3 no rail after contact",
            "no ball was pocketed and no ball met a cushion after the first contact",
        );
    }
    None
}

/// WPA legal break (nine-, ten- and eight-ball alike): a ball pocketed, or at least
/// four object balls driven to a cushion.
pub(crate) fn wpa_illegal_break(facts: &Facts, rule: &str) -> Option<Foul> {
    if facts.pocketed.iter().any(|p| p.1 != 0) {
        return None;
    }
    let mut railed: Vec<u32> = facts
        .cushions
        .iter()
        .map(|c| c.1)
        .filter(|&n| n != 0)
        .collect();
    railed.sort_unstable();
    railed.dedup();
    if railed.len() >= 4 {
        None
    } else {
        foul(
            rule,
            format!(
                "the break pocketed no ball and drove {} object balls to a cushion (4 needed)",
                railed.len()
            ),
        )
    }
}

/// The object balls the shot pocketed, in time order.
pub(crate) fn pocketed_objects(facts: &Facts) -> Numbers {
    facts
        .pocketed
        .iter()
        .map(|p| p.1)
        .filter(|&n| n != 0)
        .collect()
}

/// The state after a pool shot's common book-keeping: the pocketed balls off the
/// table (less those put back), the shot counted, fouls counted, the turn passed or
/// kept, ball in hand after a foul, three successive fouls losing the game (WPA 7.1).
pub(crate) fn pool_after(
    state: &State,
    facts: &Facts,
    mut foul_: Option<Foul>,
    continues: bool,
    respot: &[u32],
) -> Judgement {
    let mut s = state.clone();
    let down = pocketed_objects(facts);
    s.on_table
        .retain(|n| !down.contains(n) || respot.contains(n));
    s.shots = s.shots.saturating_add(1);
    s.ball_in_hand = None;
    s.push_out = false;
    s.options.clear();
    s.chosen = None;
    s.before = None;
    let me = state.player;
    let turn_over = foul_.is_some() || !continues;
    if foul_.is_some() {
        s.fouls[me] = s.fouls[me].saturating_add(1);
        if s.fouls[me] >= 3 {
            let f = foul_.take().unwrap_or_else(|| Foul {
                rule: String::new(),
                what: String::new(),
            });
            foul_ = foul(
                "WPA 7.1 three consecutive fouls",
                format!("{} (the third foul in a row loses the game)", f.what),
            );
            s.over = true;
            s.winner = Some(1 - me);
        } else {
            s.ball_in_hand = Some(Placement::Anywhere);
        }
    } else {
        s.fouls[me] = 0;
    }
    if turn_over && !s.over {
        s.player = 1 - me;
        s.inning = s.inning.saturating_add(1);
    }
    Judgement {
        foul: foul_,
        points: [0, 0],
        turn_over,
        respot: Numbers::from_slice(respot),
        state: s,
    }
}

#[cfg(test)]
pub(crate) mod test_facts {
    //! Hand-built fact logs for the rules' tests.
    use crate::shot::Facts;

    /// A log from events written as `(time, what)`: `"hit N"` the cue ball meets ball
    /// N, `"rail N"` ball N meets a cushion, `"pot N K"` ball N drops in pocket K.
    pub fn log(events: &[(f64, &str)]) -> Facts {
        let mut f = Facts::default();
        for &(t, e) in events {
            let w: Vec<&str> = e.split_whitespace().collect();
            let n = |k: usize| w[k].parse::<u32>().unwrap();
            match w[0] {
                "hit" => {
                    f.cue_contacts.push((t, n(1)));
                    f.first_contact.get_or_insert(n(1));
                }
                "rail" => f.cushions.push((t, n(1))),
                "pot" => f.pocketed.push((t, n(1), n(2))),
                other => panic!("unknown event {other}"),
            }
        }
        f
    }
}
