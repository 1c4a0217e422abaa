//! The errors of checked input, named by the field that is wrong: [`ScenarioError`]
//! for a scenario, a state file or a setting (with its line, where the format gives
//! one), [`BuildError`] for a world's parameters. A foundation below the physics laws,
//! the parser and the generators, so that each reports through them without depending
//! on the code that calls it.

/// One problem with a scenario. Displayed as `line L: field: message`, the parts that
/// are known; the caller puts the file name in front.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// The line of the file where the problem is written, when the format gives one.
    pub line: Option<usize>,
    /// The field at fault, as written in the file (`balls[3].r`, `physics.dt`).
    pub field: Option<String>,
    /// What is wrong, one line.
    pub message: String,
}

impl ScenarioError {
    /// A problem with `field`, its line not yet known.
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

/// A world that cannot be built: names the parameter and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildError {
    /// The parameter at fault (`physics.dt`, `balls[2].m`).
    pub field: String,
    /// What is wrong, one line.
    pub message: String,
}

impl BuildError {
    /// The parameter `field` has a value that is not allowed, as `message` says.
    pub fn invalid(field: &str, message: String) -> BuildError {
        BuildError {
            field: field.to_string(),
            message,
        }
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for BuildError {}
