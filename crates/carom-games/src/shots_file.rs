//! The shots file `carom play --shots FILE.csv` reads: a header naming the columns,
//! then one shot per line.
//!
//! The header starts with `speed,aim,english,follow,elevation`; it may go on with
//! `call_ball,call_pocket` (where the rules call) and `cue_x,cue_y` (where to put the
//! cue ball when in hand), in any order. In a line `call_ball` is a ball number,
//! `safe` (a ten-ball safety), `push` (a push-out) or empty (no call); `call_pocket` a
//! pocket's index or name (`top-left` ...). A line `choose,NAME` takes one of the
//! choices the rules offer the player to move (`accept`, `pass-back`, `push-out`,
//! `re-rack`, `re-rack-offender`, `free-ball`, `replace`) instead of a shot. Empty lines
//! and lines starting with `#` are skipped. Every error is one line naming the line
//! and the column.

use crate::game::{Game, ShotResult};
use crate::rules::{Call, Choice};
use crate::setups::Setup;
use crate::shot::Shot;

/// The five columns every shots file starts with.
pub const SHOT_COLUMNS: [&str; 5] = ["speed", "aim", "english", "follow", "elevation"];
/// The columns it may add.
pub const EXTRA_COLUMNS: [&str; 4] = ["call_ball", "call_pocket", "cue_x", "cue_y"];

/// One shot of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotLine {
    /// The line's number in the file (from 1).
    pub line: usize,
    pub shot: Shot,
    /// The call as written (ball, pocket), checked against the game when played.
    pub call: Option<(String, String)>,
    pub cue: Option<[f64; 2]>,
}

/// One line of the file after the header: a shot, or a choice.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Shot(ShotLine),
    Choose { line: usize, choice: Choice },
}

impl Entry {
    /// The line's number in the file (from 1).
    pub fn line(&self) -> usize {
        match self {
            Entry::Shot(l) => l.line,
            Entry::Choose { line, .. } => *line,
        }
    }
}

/// Parses the file's text; `origin` names it in errors.
pub fn parse(origin: &str, text: &str) -> Result<Vec<Entry>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((hl, header)) = lines.next() else {
        return Err(format!(
            "{origin}: empty: the first line must be the header {}",
            SHOT_COLUMNS.join(",")
        ));
    };
    let columns: Vec<&str> = header.split(',').map(str::trim).collect();
    if columns.len() < 5 || columns[..5] != SHOT_COLUMNS {
        return Err(format!(
            "{origin}:{hl}: the header must start with {}",
            SHOT_COLUMNS.join(",")
        ));
    }
    for (k, c) in columns.iter().enumerate().skip(5) {
        if !EXTRA_COLUMNS.contains(c) {
            return Err(format!(
                "{origin}:{hl}: unknown column {c:?} (the others allowed: {})",
                EXTRA_COLUMNS.join(", ")
            ));
        }
        if columns[..k].contains(c) {
            return Err(format!("{origin}:{hl}: column {c} twice"));
        }
    }
    let has = |c: &str| columns.contains(&c);
    if has("call_ball") != has("call_pocket") {
        return Err(format!(
            "{origin}:{hl}: call_ball and call_pocket go together"
        ));
    }
    if has("cue_x") != has("cue_y") {
        return Err(format!("{origin}:{hl}: cue_x and cue_y go together"));
    }
    let mut out = Vec::new();
    for (n, l) in lines {
        let cells: Vec<&str> = l.split(',').map(str::trim).collect();
        if cells[0] == "choose" {
            let [_, name] = cells[..] else {
                return Err(format!(
                    "{origin}:{n}: a choice line is choose,NAME ({} values given)",
                    cells.len()
                ));
            };
            let choice = Choice::parse(name).map_err(|e| format!("{origin}:{n}: choose: {e}"))?;
            out.push(Entry::Choose { line: n, choice });
            continue;
        }
        if cells.len() != columns.len() {
            return Err(format!(
                "{origin}:{n}: {} values for {} columns",
                cells.len(),
                columns.len()
            ));
        }
        let cell = |c: &str| columns.iter().position(|x| *x == c).map(|k| cells[k]);
        let number = |c: &str| -> Result<f64, String> {
            let s = cell(c).unwrap_or("");
            s.parse::<f64>()
                .map_err(|_| format!("{origin}:{n}: column {c}: {s:?} is not a number"))
        };
        let shot = Shot {
            speed: number("speed")?,
            aim: number("aim")?,
            english: number("english")?,
            follow: number("follow")?,
            elevation: number("elevation")?,
        };
        shot.check()
            .map_err(|e| format!("{origin}:{n}: column {}: {}", e.field, e.message))?;
        let call = match (cell("call_ball"), cell("call_pocket")) {
            (Some(b), Some(p)) if !b.is_empty() || !p.is_empty() => {
                Some((b.to_string(), p.to_string()))
            }
            _ => None,
        };
        let cue = match (cell("cue_x"), cell("cue_y")) {
            (Some(x), Some(y)) if !x.is_empty() || !y.is_empty() => {
                Some([number("cue_x")?, number("cue_y")?])
            }
            _ => None,
        };
        out.push(Entry::Shot(ShotLine {
            line: n,
            shot,
            call,
            cue,
        }));
    }
    Ok(out)
}

/// The call a line writes, for this game's table.
pub fn call(game: &Game, written: &(String, String)) -> Result<Call, String> {
    let (b, p) = written;
    match b.as_str() {
        "safe" if p.is_empty() => return Ok(Call::Safety),
        "push" if p.is_empty() => return Ok(Call::PushOut),
        "safe" | "push" => return Err(format!("column call_pocket: {b} takes no pocket")),
        _ => {}
    }
    let ball: u32 = b
        .parse()
        .map_err(|_| format!("column call_ball: {b:?} is not a ball number, safe or push"))?;
    let pocket = match p.parse::<u32>() {
        Ok(k) => k,
        Err(_) => game
            .table
            .pocket_index(p)
            .map(|k| k as u32)
            .ok_or_else(|| {
                let names: Vec<&str> = game.table.pockets.iter().map(|p| p.name).collect();
                format!(
                    "column call_pocket: {p:?} is no pocket (pockets: 0 to {}, or {})",
                    names.len().saturating_sub(1),
                    names.join(", ")
                )
            })?,
    };
    Ok(Call::Pot { ball, pocket })
}

/// Plays the lines in order; the first error is one line naming the file's line.
/// `each` sees every shot's result as it comes, with the position before the shot,
/// and `chose` every choice taken, with the game after it.
pub fn play(
    origin: &str,
    game: &mut Game,
    lines: &[Entry],
    mut each: impl FnMut(&ShotLine, &Setup, &Game, &ShotResult),
    mut chose: impl FnMut(usize, Choice, &Game),
) -> Result<(), String> {
    for entry in lines {
        let at = |e: String| format!("{origin}:{}: {e}", entry.line());
        if game.state.over {
            return Err(at("the game is already over".into()));
        }
        let l = match entry {
            Entry::Shot(l) => l,
            Entry::Choose { line, choice } => {
                game.choose(*choice).map_err(at)?;
                chose(*line, *choice, game);
                continue;
            }
        };
        if let Some([x, y]) = l.cue {
            game.place_cue_ball(x, y).map_err(at)?;
        }
        let call = l
            .call
            .as_ref()
            .map(|c| call(game, c))
            .transpose()
            .map_err(at)?;
        let before = game.setup();
        let r = game.shoot(&l.shot, call).map_err(at)?;
        each(l, &before, game, &r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_errors_name_line_and_column() {
        let ok = "speed,aim,english,follow,elevation,call_ball,call_pocket\n\
                  # a comment\n6,0.5,0,0,0,,\n2,10,0.1,-0.2,0,safe,\n";
        let l = parse("s.csv", ok).unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[1].line(), 4);
        let Entry::Shot(l1) = &l[1] else {
            panic!("a shot")
        };
        assert_eq!(l1.call, Some(("safe".into(), String::new())));
        let bad = |t: &str| parse("s.csv", t).unwrap_err();
        assert!(bad("").contains("header"));
        assert!(bad("speed,aim\n").contains("s.csv:1"));
        assert!(bad("speed,aim,english,follow,elevation,x\n").contains("unknown column"));
        let e = bad("speed,aim,english,follow,elevation\n1,2,3\n");
        assert!(e.starts_with("s.csv:2:"), "{e}");
        let e = bad("speed,aim,english,follow,elevation\n1,nope,0,0,0\n");
        assert!(e.contains("s.csv:2: column aim"), "{e}");
        let e = bad("speed,aim,english,follow,elevation\nNaN,0,0,0,0\n");
        assert!(e.contains("column speed"), "{e}");
        let e = bad("speed,aim,english,follow,elevation\n1,0,0,0,95\n");
        assert!(e.contains("column elevation"), "{e}");
        assert!(bad("speed,aim,english,follow,elevation,call_ball\n").contains("together"));
        // Choice lines.
        let l = parse(
            "s.csv",
            "speed,aim,english,follow,elevation\nchoose,pass-back\n",
        )
        .unwrap();
        assert_eq!(
            l,
            vec![Entry::Choose {
                line: 2,
                choice: Choice::PassBack
            }]
        );
        let e = bad("speed,aim,english,follow,elevation\nchoose,pass\n");
        assert!(
            e.starts_with("s.csv:2: choose: \"pass\" is no choice"),
            "{e}"
        );
        let e = bad("speed,aim,english,follow,elevation\nchoose\n");
        assert!(e.contains("s.csv:2: a choice line is choose,NAME"), "{e}");
        let e = bad("speed,aim,english,follow,elevation\nchoose,accept,1\n");
        assert!(e.contains("3 values given"), "{e}");
    }
}
