//! The shell command that serves a `command` (stdio) server over Streamable HTTP with CORS
//! (supergateway), so the page can open it; shell quoting for it.

/// The first port a bridge command listens on; the next stdio entry gets the next one.
pub const BRIDGE_PORT: u16 = 8000;

/// The supergateway command that serves a stdio server over Streamable HTTP with CORS, and
/// its URL. Flags checked against supergateway 4.0.0 (npm): `--stdio`, `--outputTransport
/// streamableHttp`, `--stateful` (one child per session), `--port`, `--cors` (no value: any
/// origin; it exposes `Mcp-Session-Id`). Environment values are not repeated: each variable is
/// read from the person's shell.
pub fn bridge_command(command_line: &str, env_names: &[String], port: u16) -> (String, String) {
    let env: String = env_names
        .iter()
        .map(|name| format!("{name}=\"${name}\" "))
        .collect();
    let command = format!(
        "{env}npx -y supergateway@4.0.0 --stdio {} --outputTransport streamableHttp --stateful --port {port} --cors",
        shell_quote(command_line)
    );
    (command, format!("http://localhost:{port}/mcp"))
}

/// A word for a POSIX shell: as is when it has only safe characters, else single-quoted.
pub(super) fn shell_word(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if safe {
        text.to_owned()
    } else {
        shell_quote(text)
    }
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
