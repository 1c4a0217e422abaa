//! Reading `carom.pool`'s arguments: numbers, calls, pockets, routes, shot rows and
//! layouts from Python values into the games layer's, each bad one a `ScenarioError`
//! that names it.

use carom_games::rules::{Call, Placement};
use carom_games::{aim, paths, Game, Shot};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::scenario_error;

/// A number given from Python, or `ScenarioError` naming it.
pub(crate) fn number(v: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    v.extract::<f64>()
        .map_err(|_| scenario_error(format!("{what}: not a number (got {})", shown(v))))
}

/// A whole number from 0 to `max`, or `ScenarioError` naming it.
pub(crate) fn whole(v: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    match v.extract::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(scenario_error(format!(
            "{what}: must be a whole number from 0 to {max} (got {})",
            shown(v)
        ))),
    }
}

pub(crate) fn shown(v: &Bound<'_, PyAny>) -> String {
    v.repr().map(|s| s.to_string()).unwrap_or_default()
}

pub(super) fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::Anywhere => "anywhere",
        Placement::BehindHeadString => "behind-head-string",
        Placement::InD => "in-d",
    }
}

/// The route `pool.aim` names by `kind`, `cushions` (indices or names) and `via`;
/// `None` without a kind.
pub(super) fn route_of(
    kind: Option<&Bound<'_, PyAny>>,
    cushions: Option<&Bound<'_, PyAny>>,
    via: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<aim::Route>> {
    let Some(kind) = kind.filter(|k| !k.is_none()) else {
        if cushions.is_some_and(|c| !c.is_none()) || via.is_some_and(|v| !v.is_none()) {
            return Err(scenario_error(
                "aim: cushions and via go with a kind (bank, kick, combination)",
            ));
        }
        return Ok(None);
    };
    let kind: String = kind
        .extract()
        .map_err(|_| scenario_error(format!("aim: kind: {} is not a string", shown(kind))))?;
    let mut rails = Vec::new();
    if let Some(c) = cushions.filter(|c| !c.is_none()) {
        let items = c
            .try_iter()
            .map_err(|_| scenario_error(format!("aim: cushions: {} is not a list", shown(c))))?;
        for item in items {
            let item = item?;
            let k = if let Ok(s) = item.cast::<PyString>() {
                let s = s.to_str()?;
                paths::CUSHIONS
                    .iter()
                    .position(|&n| n == s)
                    .ok_or_else(|| {
                        scenario_error(format!(
                        "aim: cushions: {s:?} is no cushion (left, right, top, bottom or 0 to 3)"
                    ))
                    })?
            } else {
                whole(&item, "aim: cushions", 3)? as usize
            };
            rails.push(k);
        }
    }
    let via = via
        .filter(|v| !v.is_none())
        .map(|v| whole(v, "aim: via", u64::from(u32::MAX)).map(|n| n as u32))
        .transpose()?;
    aim::Route::parse(&kind, &rails, via)
        .map(Some)
        .map_err(scenario_error)
}

/// A pocket given as its index or its name.
pub(super) fn pocket_of(game: &Game, v: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    let pockets = &game.table.pockets;
    if pockets.is_empty() {
        return Err(scenario_error(format!(
            "{what}: the {} table has no pockets",
            game.table.kind.name()
        )));
    }
    let names: Vec<&str> = pockets.iter().map(|p| p.name).collect();
    let bad = || {
        scenario_error(format!(
            "{what}: {} is no pocket (pockets 0 to {}, or {})",
            shown(v),
            pockets.len() - 1,
            names.join(", ")
        ))
    };
    if let Ok(s) = v.cast::<PyString>() {
        return game.table.pocket_index(s.to_str()?).ok_or_else(bad);
    }
    match v.extract::<u64>() {
        Ok(k) if (k as usize) < pockets.len() => Ok(k as usize),
        _ => Err(bad()),
    }
}

/// `call=`: `None`, `"safe"`, `"push"` or a `(ball, pocket)` pair.
pub(super) fn call_of(game: &Game, v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Call>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if let Ok(s) = v.cast::<PyString>() {
        return match s.to_str()? {
            "safe" => Ok(Some(Call::Safety)),
            "push" => Ok(Some(Call::PushOut)),
            other => Err(scenario_error(format!(
                "call: {other:?} is not \"safe\", \"push\" or a (ball, pocket) pair"
            ))),
        };
    }
    let items: Vec<Bound<'_, PyAny>> = v
        .extract()
        .ok()
        .filter(|i: &Vec<Bound<'_, PyAny>>| i.len() == 2)
        .ok_or_else(|| {
            scenario_error(format!(
                "call: {} is not \"safe\", \"push\" or a (ball, pocket) pair",
                shown(v)
            ))
        })?;
    let ball = whole(&items[0], "call: ball", u64::from(u32::MAX))? as u32;
    let pocket = pocket_of(game, &items[1], "call: pocket")? as u32;
    Ok(Some(Call::Pot { ball, pocket }))
}

pub(crate) fn call_object(py: Python<'_>, call: Option<Call>) -> PyResult<Py<PyAny>> {
    Ok(match call {
        None => py.None(),
        Some(Call::Safety) => "safe".into_pyobject(py)?.into_any().unbind(),
        Some(Call::PushOut) => "push".into_pyobject(py)?.into_any().unbind(),
        Some(Call::Pot { ball, pocket }) => (ball, pocket).into_pyobject(py)?.into_any().unbind(),
    })
}

/// Every row of an (n, `width`) array of numbers, flat, and n.
pub(super) fn rows_of(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    width: usize,
) -> PyResult<(usize, Vec<f64>)> {
    let (shape, values) = crate::convert::float_array(py, value, what)?;
    if shape.len() != 2 || shape[1] != width {
        return Err(scenario_error(format!(
            "{what}: expected shape (n, {width}), one row per shot (speed, aim, english, \
             follow, elevation), got {shape:?}"
        )));
    }
    Ok((shape[0], values))
}

/// The shots of a flat (n, 5) array, each checked (`shots[k]: field: message`).
pub(super) fn shots_of(rows: &[f64]) -> PyResult<Vec<Shot>> {
    rows.chunks_exact(5)
        .enumerate()
        .map(|(k, r)| {
            let s = Shot {
                speed: r[0],
                aim: r[1],
                english: r[2],
                follow: r[3],
                elevation: r[4],
            };
            s.check()
                .map_err(|e| scenario_error(format!("shots[{k}]: {e}")))?;
            Ok(s)
        })
        .collect()
}

/// The result of one shot (see `docs/python.md`): `first_contact` (a ball number or
/// None), `cushions` [(time, ball)] and `pocketed` [(time, ball, pocket)] in time order,
/// `foul` (the rule broken, or None) and `foul_what`, `points` (gained by player 0 and
/// 1), `turn_over`, `next_player`, `ball_in_hand` (None or where: "anywhere",
/// "behind-head-string", "in-d"), `game_over`, `winner` (None: not over, or a draw),
/// `shooter`, `call` (the call made), `options` (the choices the next player has, by
/// name), `verdict` (one line) and `events` (the engine's log as `World.events()`
/// gives it, balls by their numbers).
/// A `layout=` dict: `{"cue": (x, y), 1: (x, y), ...}`.
pub(super) fn layout_of(v: &Bound<'_, PyAny>) -> PyResult<Vec<(u32, [f64; 2])>> {
    let d = v.cast::<PyDict>().map_err(|_| {
        scenario_error(format!(
            "layout: expected a dict of ball: (x, y), got {}",
            shown(v)
        ))
    })?;
    let mut balls = Vec::with_capacity(d.len());
    for (k, p) in d.iter() {
        let n = if k
            .cast::<PyString>()
            .is_ok_and(|s| s.to_str().is_ok_and(|s| s == "cue"))
        {
            0
        } else {
            whole(&k, "layout: a key", u64::from(u32::MAX)).map_err(|_| {
                scenario_error(format!(
                    "layout: key {}: a ball number or \"cue\"",
                    shown(&k)
                ))
            })? as u32
        };
        let what = format!("layout: ball {n}");
        let xy: Vec<Bound<'_, PyAny>> = p
            .extract()
            .ok()
            .filter(|xy: &Vec<Bound<'_, PyAny>>| xy.len() == 2)
            .ok_or_else(|| scenario_error(format!("{what}: expected (x, y), got {}", shown(&p))))?;
        balls.push((n, [number(&xy[0], &what)?, number(&xy[1], &what)?]));
    }
    Ok(balls)
}
