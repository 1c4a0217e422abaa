//! The one error of checked input: a scenario, a state file or a setting that is
//! wrong, named by its field (and line, where the format gives one). It sits below the
//! parser and the generators, so that code building a world from input (placement,
//! compression to a target, wall motion, thermostats) reports through it without
//! depending on the parser.

/// One problem with a scenario. Displayed as `line L: field: message`, the parts that
/// are known; the caller puts the file name in front.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

impl ScenarioError {
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            line: None,
            field: Some(field.into()),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        // Messages from the format libraries can span lines; the contract is one line.
        let one_line: Vec<&str> = self.message.split_whitespace().collect();
        write!(f, "{}", one_line.join(" "))
    }
}

impl std::error::Error for ScenarioError {}
