//! The `[table]` section of a scenario as written in a file: its size and what closes
//! each axis (walls, periodic, open, sheared), in each of the forms a file may use.

use serde::{Deserialize, Serialize};

use crate::error::BuildError;
use crate::sheared::{KEY, SHIFT_KEY};
use crate::table::{Boundary, Table};

/// The `[table]` section: the table `[0, width] x [0, height]` and its boundaries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Extent along x, table units (`width`). Width and height may both be left out when
    /// a `gas` generator gives `n` and `area_fraction`: the table is then the square that
    /// holds the gas at that area fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Extent along y, table units (`height`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// `"walls"` (default), `"periodic"`, or per axis `["periodic", "walls"]` (x, y).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<BoundarySpec>,
}

/// What closes each axis of the table, as a scenario writes it: one word for both axes,
/// a list of two (x, then y), or a map `{ x = "periodic", y = "sheared", shear_rate = G }`
/// (a sheared box, Lees-Edwards; see [`ShearSpec`]). Written back as one word when both
/// axes agree, as the map when sheared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundarySpec {
    /// The boundary of x and of y; an axis written `"sheared"` is periodic here.
    pub axes: [Boundary; 2],
    /// What the map form says of shearing (`None`: no axis written `"sheared"`, no
    /// `shear_rate`, no `shift`). Checked when the table is built
    /// ([`table_with_boundary`]), where each error names its key.
    pub shear: Option<ShearSpec>,
}

impl From<[Boundary; 2]> for BoundarySpec {
    fn from(axes: [Boundary; 2]) -> BoundarySpec {
        BoundarySpec { axes, shear: None }
    }
}

/// The sheared part of `table.boundary`'s map form, as written: which axes are called
/// `"sheared"` (only y may be), the rate `G`, and the current x offset of the copy
/// above (`shift`, in `[0, width)`; a state file writes it, a scenario may start from
/// one; default 0).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ShearSpec {
    /// Which axes are written `"sheared"`, `[x, y]` (only y may be).
    pub sheared: [bool; 2],
    /// The shear rate `G`, per unit time (`shear_rate`).
    pub rate: Option<f64>,
    /// The x offset of the copy of the box above, table units, in `[0, width)` (`shift`;
    /// default 0).
    pub shift: Option<f64>,
}

const BOUNDARY_EXPECTED: &str = r#""walls", "periodic", "open", a list of two of them (x, then y), e.g. ["periodic", "walls"], or a map { x = "periodic", y = "sheared", shear_rate = G }"#;

const BOUNDARY_KEYS: &[&str] = &["x", "y", "shear_rate", "shift"];

fn boundary_name(b: Boundary) -> &'static str {
    match b {
        Boundary::Walls => "walls",
        Boundary::Periodic => "periodic",
        Boundary::Open => "open",
    }
}

/// The table that `table.boundary` makes of a table of this size (`size`, walled):
/// its axes, and, for the map form with `y = "sheared"`, the sheared box at its rate
/// and shift. Each misuse of the map form is refused naming its key: an x written
/// `"sheared"` (the copies slide along x, so only y may be), a sheared y beside an x
/// that is not periodic, a rate without a sheared y or a sheared y without a rate, a
/// rate or shift that is not finite, a shift off `[0, width)`.
pub fn table_with_boundary(spec: Option<&BoundarySpec>, size: Table) -> Result<Table, BuildError> {
    let Some(spec) = spec else {
        return Ok(size);
    };
    let table = size.with_boundary(spec.axes);
    let Some(shear) = spec.shear else {
        return Ok(table);
    };
    if shear.sheared[0] {
        return Err(BuildError::invalid(
            "table.boundary.x",
            "only y may be sheared: the copies across the y edges slide along x \
             (x = \"periodic\", y = \"sheared\")"
                .to_string(),
        ));
    }
    let Some(g) = shear.rate else {
        let (key, what) = if shear.sheared[1] {
            (KEY, "missing: y = \"sheared\" needs the rate G")
        } else {
            (SHIFT_KEY, "belongs to a sheared box (y = \"sheared\")")
        };
        return Err(BuildError::invalid(key, what.to_string()));
    };
    if !shear.sheared[1] {
        return Err(BuildError::invalid(
            KEY,
            format!(
                "a shear rate needs y = \"sheared\" (y is {:?})",
                boundary_name(spec.axes[1])
            ),
        ));
    }
    if !g.is_finite() {
        return Err(BuildError::invalid(
            KEY,
            format!("must be a finite number (got {g})"),
        ));
    }
    if spec.axes[0] != Boundary::Periodic {
        return Err(BuildError::invalid(
            "table.boundary.x",
            format!(
                "must be \"periodic\" in a sheared box (got {:?})",
                boundary_name(spec.axes[0])
            ),
        ));
    }
    let shift = shear.shift.unwrap_or(0.0);
    if !(shift.is_finite() && (0.0..size.width).contains(&shift)) {
        return Err(BuildError::invalid(
            SHIFT_KEY,
            format!("must be in [0, table.width) (got {shift})"),
        ));
    }
    Ok(Table::sheared(size.width, size.height, g, shift))
}

/// How a state file writes a table's boundary: `None` for walls all round, the map
/// form with the rate and the current shift for a sheared box, the words otherwise.
pub fn boundary_spec_of(table: &Table) -> Option<BoundarySpec> {
    if table.is_sheared() {
        return Some(BoundarySpec {
            axes: table.boundary,
            shear: Some(ShearSpec {
                sheared: [false, true],
                rate: Some(table.shear_rate),
                shift: Some(table.shift),
            }),
        });
    }
    (table.boundary != [Boundary::Walls; 2]).then_some(BoundarySpec::from(table.boundary))
}

impl Serialize for BoundarySpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let name = boundary_name;
        if let Some(shear) = &self.shear {
            let mut m = s.serialize_map(None)?;
            for (axis, key) in ["x", "y"].into_iter().enumerate() {
                let word = if shear.sheared[axis] {
                    "sheared"
                } else {
                    name(self.axes[axis])
                };
                m.serialize_entry(key, word)?;
            }
            if let Some(g) = shear.rate {
                m.serialize_entry("shear_rate", &g)?;
            }
            if let Some(shift) = shear.shift {
                m.serialize_entry("shift", &shift)?;
            }
            m.end()
        } else if self.axes[0] == self.axes[1] {
            s.serialize_str(name(self.axes[0]))
        } else {
            [name(self.axes[0]), name(self.axes[1])].serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for BoundarySpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        fn word<E: serde::de::Error>(v: &str) -> Result<Boundary, E> {
            match v {
                "walls" => Ok(Boundary::Walls),
                "periodic" => Ok(Boundary::Periodic),
                "open" => Ok(Boundary::Open),
                "sheared" => Err(E::custom(
                    r#"a sheared axis is written in the map form { x = "periodic", y = "sheared", shear_rate = G }"#,
                )),
                other => Err(E::custom(format!(
                    "unknown boundary {other:?}: expected {BOUNDARY_EXPECTED}"
                ))),
            }
        }
        /// An axis of the map form: a boundary's word, or "sheared" (periodic, with
        /// the copies across it sliding).
        fn axis_word<E: serde::de::Error>(v: &str) -> Result<(Boundary, bool), E> {
            if v == "sheared" {
                Ok((Boundary::Periodic, true))
            } else {
                word(v).map(|b| (b, false))
            }
        }
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = BoundarySpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(BOUNDARY_EXPECTED)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<BoundarySpec, E> {
                let b = word(v)?;
                Ok(BoundarySpec::from([b, b]))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<BoundarySpec, A::Error> {
                use serde::de::Error;
                let mut out = [Boundary::Walls; 2];
                for slot in &mut out {
                    let v: String = seq.next_element()?.ok_or_else(|| {
                        A::Error::custom(format!("needs two entries: expected {BOUNDARY_EXPECTED}"))
                    })?;
                    *slot = word(&v)?;
                }
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(A::Error::custom(format!(
                        "has more than two entries: expected {BOUNDARY_EXPECTED}"
                    )));
                }
                Ok(BoundarySpec::from(out))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<BoundarySpec, A::Error> {
                use serde::de::Error;
                let mut axes: [Option<(Boundary, bool)>; 2] = [None, None];
                let mut shear = ShearSpec::default();
                while let Some(key) = map.next_key::<String>()? {
                    let twice = || A::Error::custom(format!("{key} is given twice"));
                    match key.as_str() {
                        "x" | "y" => {
                            let slot = &mut axes[usize::from(key == "y")];
                            if slot.is_some() {
                                return Err(twice());
                            }
                            let v: String = map.next_value()?;
                            *slot = Some(axis_word(&v)?);
                        }
                        "shear_rate" | "shift" => {
                            let slot = if key == "shift" {
                                &mut shear.shift
                            } else {
                                &mut shear.rate
                            };
                            if slot.is_some() {
                                return Err(twice());
                            }
                            *slot = Some(map.next_value::<f64>()?);
                        }
                        other => return Err(A::Error::unknown_field(other, BOUNDARY_KEYS)),
                    }
                }
                let mut out = [Boundary::Walls; 2];
                for (axis, (slot, key)) in axes.iter().zip(["x", "y"]).enumerate() {
                    let (b, sheared) = slot.ok_or_else(|| {
                        A::Error::custom(format!(
                            "the map form needs both x and y (missing {key}): expected \
                             {BOUNDARY_EXPECTED}"
                        ))
                    })?;
                    out[axis] = b;
                    shear.sheared[axis] = sheared;
                }
                let any =
                    shear.sheared != [false; 2] || shear.rate.is_some() || shear.shift.is_some();
                Ok(BoundarySpec {
                    axes: out,
                    shear: any.then_some(shear),
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}
