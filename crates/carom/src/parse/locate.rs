//! Where a field is written in a scenario's text: the line an error names, found by
//! walking the TOML or JSON document along the field's path.

use super::{line_of, Format};

/// One step of a path into a scenario document: a key of a table or an index into an
/// array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSeg {
    /// A key of a table.
    Key(String),
    /// An index into an array.
    Index(usize),
}

/// Splits a field name into its steps. Accepts the form errors use (`balls[3].r`,
/// `physics.gravity[0]`) and the dotted form of command-line overrides
/// (`balls.3.r`): a part made only of digits is an array index.
pub fn field_path(field: &str) -> Vec<PathSeg> {
    let mut out = Vec::new();
    for part in field.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(p) => (&part[..p], &part[p..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(match key.parse::<usize>() {
                Ok(i) if key.bytes().all(|b| b.is_ascii_digit()) => PathSeg::Index(i),
                _ => PathSeg::Key(key.to_string()),
            });
        }
        while let Some(close) = rest.find(']') {
            // `get`: after a first `[i]` the rest need not open with `[` (`a[1]]`,
            // `a[1]é]`), and slicing it from byte 1 would panic.
            if let Some(Ok(i)) = rest.get(1..close).map(str::parse::<usize>) {
                out.push(PathSeg::Index(i));
            }
            rest = &rest[close + 1..];
        }
    }
    out
}

/// The line of `text` where the field named `field` (as in [`crate::ScenarioError::field`])
/// is written, or of its nearest written ancestor (a ball's `[[balls]]` entry when the
/// ball's `r` was left to its default). `None` when nothing of the path is written.
pub fn locate_field(text: &str, format: Format, field: &str) -> Option<usize> {
    let path = field_path(field);
    if path.is_empty() {
        return None;
    }
    let offset = match format {
        Format::Toml => toml_locate(text, &path),
        Format::Json => json::locate(text, &path),
    }?;
    Some(line_of(text, offset))
}

fn toml_locate(text: &str, path: &[PathSeg]) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut found = None;
    let mut table = Some(root.get_ref());
    let mut value: Option<&DeValue> = None;
    for seg in path {
        let next = match (seg, table, value) {
            (PathSeg::Key(k), Some(t), _) => t
                .get_key_value(k.as_str())
                .map(|(key, v)| (key.span().start, v)),
            (PathSeg::Index(i), _, Some(DeValue::Array(a))) => {
                a.get(*i).map(|v| (v.span().start, v))
            }
            _ => None,
        };
        let Some((at, v)) = next else { break };
        found = Some(at);
        value = Some(v.get_ref());
        table = match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    found
}

/// Finding where a path is written in JSON text, which serde_json does not report
/// for values it accepted. The text has already parsed, so this scanner only needs
/// to walk valid JSON; on anything unexpected it gives up and reports nothing.
mod json {
    use super::PathSeg;

    pub fn locate(text: &str, path: &[PathSeg]) -> Option<usize> {
        let mut s = Scanner {
            b: text.as_bytes(),
            pos: 0,
        };
        let mut found = None;
        s.value(path, &mut found)?;
        found
    }

    struct Scanner<'a> {
        b: &'a [u8],
        pos: usize,
    }

    impl Scanner<'_> {
        fn ws(&mut self) {
            while self.pos < self.b.len() && self.b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
        }

        fn peek(&mut self) -> Option<u8> {
            self.ws();
            self.b.get(self.pos).copied()
        }

        fn eat(&mut self, c: u8) -> Option<()> {
            (self.peek()? == c).then(|| self.pos += 1)
        }

        /// The byte range of a string's raw contents (escapes left as written:
        /// scenario keys have none).
        fn string(&mut self) -> Option<std::ops::Range<usize>> {
            self.eat(b'"')?;
            let start = self.pos;
            while *self.b.get(self.pos)? != b'"' {
                self.pos += if self.b[self.pos] == b'\\' { 2 } else { 1 };
            }
            self.pos += 1;
            Some(start..self.pos - 1)
        }

        /// Walks one value; where it holds `path`, records the offset of each step of
        /// the path it finds into `found` (deeper steps overwrite shallower ones).
        fn value(&mut self, path: &[PathSeg], found: &mut Option<usize>) -> Option<()> {
            match self.peek()? {
                b'{' => {
                    self.pos += 1;
                    if self.peek()? == b'}' {
                        self.pos += 1;
                        return Some(());
                    }
                    loop {
                        self.ws();
                        let at = self.pos;
                        let key = self.string()?;
                        self.eat(b':')?;
                        match path.first() {
                            Some(PathSeg::Key(k)) if k.as_bytes() == &self.b[key] => {
                                *found = Some(at);
                                self.value(&path[1..], found)?;
                            }
                            _ => self.value(&[], &mut None)?,
                        }
                        if self.eat(b',').is_none() {
                            return self.eat(b'}');
                        }
                    }
                }
                b'[' => {
                    self.pos += 1;
                    if self.peek()? == b']' {
                        self.pos += 1;
                        return Some(());
                    }
                    let mut index = 0;
                    loop {
                        self.ws();
                        match path.first() {
                            Some(PathSeg::Index(i)) if *i == index => {
                                *found = Some(self.pos);
                                self.value(&path[1..], found)?;
                            }
                            _ => self.value(&[], &mut None)?,
                        }
                        index += 1;
                        if self.eat(b',').is_none() {
                            return self.eat(b']');
                        }
                    }
                }
                b'"' => self.string().map(|_| ()),
                _ => {
                    // A number or a literal: up to the next delimiter.
                    let start = self.pos;
                    while self.pos < self.b.len()
                        && !matches!(self.b[self.pos], b',' | b'}' | b']')
                        && !self.b[self.pos].is_ascii_whitespace()
                    {
                        self.pos += 1;
                    }
                    (self.pos > start).then_some(())
                }
            }
        }
    }
}
