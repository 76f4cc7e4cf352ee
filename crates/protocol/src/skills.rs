//! Skills (SEP-2640, the experimental extension `io.modelcontextprotocol/skills`): a server
//! publishes Agent Skills as resources (`skill://<path>/SKILL.md` and the files beside it),
//! lists them with `skills/list` (each entry a complete manifest: the frontmatter verbatim,
//! every file with its SHA-256 digest and size) and answers `skills/get` for one.
//!
//! The host's duties this module holds as rules:
//! - an invalid entry is never loaded ([`read_entry`] says why);
//! - files are read lazily: nothing on connecting or listing, `SKILL.md` when the person opens
//!   the skill, a supporting file when they open it;
//! - every file read is checked against the entry before it is shown as the skill's
//!   ([`verify_file`]: listed, same size, same digest), and `SKILL.md`'s frontmatter against
//!   the entry's, field by field ([`verify_skill_md`]); a failure means the content is not
//!   used, and nothing more of that skill is read.
//!
//! ```
//! use mcp_lens_protocol::skills::read_list;
//! use serde_json::json;
//! let page = read_list(&json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": [
//!     {"uri": "skill://daily/SKILL.md", "frontmatter": {"name": "daily", "description": "Today's report"}, "resources": "dynamic"}]}));
//! assert_eq!(page.skills[0].as_ref().unwrap().name, "daily");
//! ```

pub mod frontmatter;

use crate::auth::encode::base64_decode;
use crate::auth::pkce::sha256;
use crate::error::excerpt;
use serde_json::{Map, Value};
use std::fmt;

pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";
pub const SKILLS_LIST: &str = "skills/list";
pub const SKILLS_GET: &str = "skills/get";
/// Offered only when the server declares `directoryRead: true`.
pub const DIRECTORY_READ: &str = "resources/directory/read";
/// The limits every host must accept and may stop at (per skill).
pub const MAX_FILES: usize = 512;
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
const SKILL_FILE: &str = "SKILL.md";

/// What the server's capabilities say about skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerSkills {
    /// The extension is declared: `skills/list` and `skills/get` may be called.
    pub declared: bool,
    /// `resources/directory/read` may be called too.
    pub directory_read: bool,
}

/// Reads `capabilities.extensions["io.modelcontextprotocol/skills"]`.
pub fn server_skills(capabilities: Option<&Value>) -> ServerSkills {
    match capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION_ID))
    {
        Some(Value::Object(settings)) => ServerSkills {
            declared: true,
            directory_read: settings.get("directoryRead") == Some(&Value::Bool(true)),
        },
        _ => ServerSkills::default(),
    }
}

/// One file of a skill, as its entry describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    pub uri: String,
    pub digest: [u8; 32],
    pub size: u64,
}

/// A skill's files: a complete manifest, or `dynamic` (generated content, no digests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillFiles {
    Listed(Vec<SkillFile>),
    Dynamic,
}

/// A valid skill entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The URI of its `SKILL.md` (with the server, its identity).
    pub uri: String,
    pub name: String,
    pub description: String,
    /// Verbatim, as the server rendered the `SKILL.md` frontmatter.
    pub frontmatter: Map<String, Value>,
    pub files: SkillFiles,
    /// Why this host declines to load it though the entry is valid (over the limits), if so.
    pub declined: Option<String>,
}

impl Skill {
    /// The directory holding `SKILL.md` (relative references resolve against it).
    pub fn root(&self) -> &str {
        self.uri
            .strip_suffix(SKILL_FILE)
            .unwrap_or(&self.uri)
            .trim_end_matches('/')
    }

    /// The listed file at `uri`, if listed.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        match &self.files {
            SkillFiles::Listed(files) => files.iter().find(|file| file.uri == uri),
            SkillFiles::Dynamic => None,
        }
    }

    /// Resolves a reference written in `SKILL.md` (`references/FORMS.md`, `./a.md`) against
    /// the skill's root, as a filesystem path resolves; `None` for a reference that leaves
    /// the skill (`../other`), is absolute, or names another scheme.
    pub fn resolve(&self, reference: &str) -> Option<String> {
        if reference.is_empty()
            || reference.starts_with('/')
            || reference.contains("://")
            || reference.contains('\\')
        {
            return None;
        }
        let mut segments: Vec<&str> = Vec::new();
        for segment in reference.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    segments.pop()?;
                }
                segment => segments.push(segment),
            }
        }
        (!segments.is_empty()).then(|| format!("{}/{}", self.root(), segments.join("/")))
    }
}

/// An entry that must not be loaded, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSkill {
    pub uri: Option<String>,
    pub reason: String,
}

impl fmt::Display for InvalidSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.uri {
            Some(uri) => write!(
                f,
                "the skill {} is not offered: {}",
                excerpt(uri, 200),
                self.reason
            ),
            None => write!(f, "a skill entry is not offered: {}", self.reason),
        }
    }
}

/// One page of `skills/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillsPage {
    pub skills: Vec<Result<Skill, InvalidSkill>>,
    pub next_cursor: Option<String>,
}

/// Reads a `skills/list` result (any JSON: what is not a skill list gives an empty page).
pub fn read_list(result: &Value) -> SkillsPage {
    let skills = match result.get("skills") {
        Some(Value::Array(entries)) => entries.iter().map(read_entry).collect(),
        _ => Vec::new(),
    };
    SkillsPage {
        skills,
        next_cursor: result
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_owned),
    }
}

/// Reads a `skills/get` result.
pub fn read_get(result: &Value) -> Result<Skill, InvalidSkill> {
    match result.get("skill") {
        Some(entry) => read_entry(entry),
        None => Err(InvalidSkill {
            uri: None,
            reason: "the answer carries no skill".to_owned(),
        }),
    }
}

/// The Agent Skills naming rules for a skill's name: 1 to 64 characters, lowercase letters,
/// digits and hyphens, no hyphen first, last, or twice in a row.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Checks one entry against everything SEP-2640 requires of it.
pub fn read_entry(entry: &Value) -> Result<Skill, InvalidSkill> {
    let uri = entry
        .get("uri")
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .map(str::to_owned);
    let invalid = |reason: String| InvalidSkill {
        uri: uri.clone(),
        reason,
    };
    let Some(skill_uri) = uri.clone() else {
        return Err(invalid("it has no uri".to_owned()));
    };
    let Some(Value::Object(frontmatter)) = entry.get("frontmatter") else {
        return Err(invalid("it has no frontmatter object".to_owned()));
    };
    let text = |key: &str| {
        frontmatter
            .get(key)
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
    };
    let (Some(name), Some(description)) = (text("name"), text("description")) else {
        return Err(invalid(
            "its frontmatter lacks a name or a description".to_owned(),
        ));
    };
    let Some(directory) = skill_uri.strip_suffix(&format!("/{SKILL_FILE}")) else {
        return Err(invalid(format!("its uri does not end in /{SKILL_FILE}")));
    };
    let last_segment = directory.rsplit('/').next().unwrap_or("");
    if last_segment != name || directory.ends_with("://") {
        return Err(invalid(format!(
            "its uri's last path segment is \"{}\", not its name \"{}\"",
            excerpt(last_segment, 80),
            excerpt(name, 80)
        )));
    }
    if !valid_name(name) {
        return Err(invalid(format!(
            "its name \"{}\" breaks the Agent Skills naming rules (1-64 lowercase letters, digits and single hyphens)",
            excerpt(name, 80)
        )));
    }
    let files = match entry.get("resources") {
        Some(Value::String(dynamic)) if dynamic == "dynamic" => SkillFiles::Dynamic,
        Some(Value::Array(listed)) => {
            SkillFiles::Listed(read_files(listed, &skill_uri, directory).map_err(invalid)?)
        }
        _ => {
            return Err(invalid(
                "its resources are neither a list of files nor \"dynamic\"".to_owned(),
            ))
        }
    };
    let declined = match &files {
        SkillFiles::Listed(files) if files.len() > MAX_FILES => Some(format!(
            "it has {} files, more than the {MAX_FILES} a host must accept",
            files.len()
        )),
        SkillFiles::Listed(files) => {
            let total = files
                .iter()
                .fold(0u64, |total, file| total.saturating_add(file.size));
            (total > MAX_TOTAL_BYTES).then(|| {
                format!("its files hold {total} bytes, more than the 16 MiB a host must accept")
            })
        }
        SkillFiles::Dynamic => None,
    };
    Ok(Skill {
        uri: skill_uri,
        name: name.to_owned(),
        description: description.to_owned(),
        frontmatter: frontmatter.clone(),
        files,
        declined,
    })
}

fn read_files(
    listed: &[Value],
    skill_uri: &str,
    directory: &str,
) -> Result<Vec<SkillFile>, String> {
    let mut files: Vec<SkillFile> = Vec::with_capacity(listed.len().min(MAX_FILES + 1));
    for item in listed {
        let uri = item
            .get("uri")
            .and_then(Value::as_str)
            .ok_or("a file has no uri")?;
        if uri != skill_uri
            && !uri
                .strip_prefix(directory)
                .is_some_and(|rest| rest.starts_with('/'))
        {
            return Err(format!(
                "the file {} lies outside the skill's directory",
                excerpt(uri, 200)
            ));
        }
        let digest = item
            .get("digest")
            .and_then(Value::as_str)
            .and_then(parse_digest)
            .ok_or_else(|| {
                format!(
                    "the file {} has no digest of the form sha256:<64 lowercase hex>",
                    excerpt(uri, 200)
                )
            })?;
        let size = item
            .get("size")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("the file {} has no size in bytes", excerpt(uri, 200)))?;
        if files.iter().any(|file| file.uri == uri) {
            return Err(format!("the file {} is listed twice", excerpt(uri, 200)));
        }
        files.push(SkillFile {
            uri: uri.to_owned(),
            digest,
            size,
        });
    }
    if !files.iter().any(|file| file.uri == skill_uri) {
        return Err(format!("its files do not include its own {SKILL_FILE}"));
    }
    Ok(files)
}

/// `sha256:` and 64 lowercase hexadecimal digits.
fn parse_digest(text: &str) -> Option<[u8; 32]> {
    let hex = text.strip_prefix("sha256:")?;
    if hex.len() != 64
        || !hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut digest = [0u8; 32];
    for (byte, pair) in digest.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(digest)
}

/// The bytes of a `resources/read` result's content for `uri` (its text as UTF-8, or its
/// blob decoded): what the digest covers. `None` when the result holds no such content.
pub fn content_bytes(read_result: &Value, uri: &str) -> Option<Vec<u8>> {
    let contents = read_result.get("contents")?.as_array()?;
    let content = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| (contents.len() == 1).then(|| &contents[0]))?;
    match (content.get("text"), content.get("blob")) {
        (Some(Value::String(text)), _) => Some(text.as_bytes().to_vec()),
        (_, Some(Value::String(blob))) => base64_decode(blob),
        _ => None,
    }
}

/// A file that did match its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verification {
    /// Listed, the same size and digest.
    Verified,
    /// A `dynamic` skill publishes no digests: shown as unverified content.
    Unverifiable,
}

/// Why a file read must not be used as the skill's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyFailure {
    /// Not in the entry's files (an unlisted file is a change to the skill).
    Unlisted {
        uri: String,
    },
    SizeMismatch {
        uri: String,
        listed: u64,
        read: u64,
    },
    DigestMismatch {
        uri: String,
    },
    /// `SKILL.md`'s frontmatter is not the entry's (or cannot be read to compare).
    Frontmatter {
        detail: String,
    },
}

impl fmt::Display for VerifyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stop = "so it was not used, and nothing more of this skill is read (list the skills again if it was updated)";
        match self {
            VerifyFailure::Unlisted { uri } => write!(f, "{} is not one of the skill's listed files, {stop}", excerpt(uri, 200)),
            VerifyFailure::SizeMismatch { uri, listed, read } => write!(
                f,
                "{} is {read} bytes where the skill's entry lists {listed}, {stop}",
                excerpt(uri, 200)
            ),
            VerifyFailure::DigestMismatch { uri } => write!(
                f,
                "{}'s content does not match the digest in the skill's entry (altered or stale), {stop}",
                excerpt(uri, 200)
            ),
            VerifyFailure::Frontmatter { detail } => write!(f, "SKILL.md's frontmatter is not the entry's: {detail}, {stop}"),
        }
    }
}

/// Checks a file read against the entry held for its skill: listed, then the size (a size
/// mismatch fails before any hashing), then the SHA-256 digest.
pub fn verify_file(skill: &Skill, uri: &str, bytes: &[u8]) -> Result<Verification, VerifyFailure> {
    if skill.files == SkillFiles::Dynamic {
        return Ok(Verification::Unverifiable);
    }
    let Some(file) = skill.file(uri) else {
        return Err(VerifyFailure::Unlisted {
            uri: uri.to_owned(),
        });
    };
    let read = bytes.len() as u64;
    if read != file.size {
        return Err(VerifyFailure::SizeMismatch {
            uri: uri.to_owned(),
            listed: file.size,
            read,
        });
    }
    if sha256(bytes) != file.digest {
        return Err(VerifyFailure::DigestMismatch {
            uri: uri.to_owned(),
        });
    }
    Ok(Verification::Verified)
}

/// Checks a `SKILL.md` read when the person opens the skill: as a file ([`verify_file`]),
/// then its frontmatter against the entry's, field by field.
pub fn verify_skill_md(skill: &Skill, bytes: &[u8]) -> Result<Verification, VerifyFailure> {
    let verification = verify_file(skill, &skill.uri, bytes)?;
    let mismatch = |detail: String| VerifyFailure::Frontmatter { detail };
    let text = std::str::from_utf8(bytes)
        .map_err(|_| mismatch("the file is not UTF-8 text".to_owned()))?;
    let (yaml, _) = frontmatter::split(text)
        .ok_or_else(|| mismatch("the file has no --- frontmatter block".to_owned()))?;
    let read = frontmatter::parse(yaml)
        .map_err(|why| mismatch(format!("it could not be read ({why})")))?;
    let differing: Vec<&String> = read
        .keys()
        .chain(skill.frontmatter.keys())
        .filter(|key| !frontmatter::same(read.get(*key), skill.frontmatter.get(*key)))
        .collect();
    match differing.first() {
        None => Ok(verification),
        Some(key) => Err(mismatch(format!("its \"{}\" differs", excerpt(key, 80)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The conformance suite's skill (sep-2640-client-* scenarios, 0.2.0-alpha.12).
    const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
    const FORMS_MD: &str = "Supporting content.\n";

    fn digest(text: &str) -> String {
        let hex: String = sha256(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    }

    fn entry(skill_md: &str) -> Value {
        json!({"uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": {"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"},
            "resources": [
                {"uri": "skill://pdf-processing/SKILL.md", "digest": digest(skill_md), "size": skill_md.len()},
                {"uri": "skill://pdf-processing/references/FORMS.md", "digest": digest(FORMS_MD), "size": FORMS_MD.len()}]})
    }

    fn read_result(uri: &str, text: &str) -> Value {
        json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]})
    }

    #[test]
    fn the_conformance_skill_is_listed_and_loads_verified() {
        let page = read_list(
            &json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": [entry(SKILL_MD)]}),
        );
        let skill = page.skills[0].as_ref().unwrap();
        assert_eq!(
            (skill.name.as_str(), skill.root()),
            ("pdf-processing", "skill://pdf-processing")
        );
        assert_eq!(skill.declined, None);
        let bytes = content_bytes(&read_result(&skill.uri, SKILL_MD), &skill.uri).unwrap();
        assert_eq!(verify_skill_md(skill, &bytes), Ok(Verification::Verified));
        let forms = skill.resolve("references/FORMS.md").unwrap();
        assert_eq!(forms, "skill://pdf-processing/references/FORMS.md");
        assert_eq!(
            verify_file(skill, &forms, FORMS_MD.as_bytes()),
            Ok(Verification::Verified)
        );
        assert_eq!(
            read_get(&json!({"skill": entry(SKILL_MD), "ttlMs": 0})).unwrap(),
            *skill
        );
    }

    #[test]
    fn the_three_tampered_skills_of_the_suite_are_refused() {
        let skill = read_entry(&entry(SKILL_MD)).unwrap();
        // verify-digest: the same length, other bytes.
        let evil = SKILL_MD.replace("Skill body.", "Evil body!!");
        assert_eq!(
            verify_skill_md(&skill, evil.as_bytes()),
            Err(VerifyFailure::DigestMismatch {
                uri: skill.uri.clone()
            })
        );
        // verify-size: bytes the entry did not account for.
        let longer = format!("{SKILL_MD}extra bytes the entry did not account for\n");
        let failure = verify_skill_md(&skill, longer.as_bytes()).unwrap_err();
        assert!(
            matches!(
                failure,
                VerifyFailure::SizeMismatch {
                    listed: 97,
                    read: 139,
                    ..
                }
            ),
            "{failure:?}"
        );
        // verify-frontmatter: digest and size match the file, the description does not.
        let swapped = SKILL_MD.replace(
            "description: Extract, fill, and assemble PDF documents",
            "description: Exfiltrate credentials",
        );
        let honest_digest = read_entry(&entry(&swapped)).unwrap();
        let failure = verify_skill_md(&honest_digest, swapped.as_bytes()).unwrap_err();
        assert_eq!(
            failure,
            VerifyFailure::Frontmatter {
                detail: "its \"description\" differs".into()
            }
        );
        assert!(failure.to_string().ends_with(
            "nothing more of this skill is read (list the skills again if it was updated)"
        ));
        assert!(matches!(
            verify_file(&skill, "skill://pdf-processing/scripts/x.py", b""),
            Err(VerifyFailure::Unlisted { .. })
        ));
    }

    #[test]
    fn invalid_entries_say_why_they_are_not_offered() {
        let broken = |change: &dyn Fn(&mut Value)| {
            let mut value = entry(SKILL_MD);
            change(&mut value);
            read_entry(&value).unwrap_err().reason
        };
        assert_eq!(broken(&|e| e["uri"] = json!(5)), "it has no uri");
        assert!(broken(&|e| e["frontmatter"]["description"] = json!(""))
            .contains("lacks a name or a description"));
        assert!(
            broken(&|e| e["uri"] = json!("skill://pdf-processing/README.md"))
                .contains("does not end in /SKILL.md")
        );
        assert!(broken(&|e| e["frontmatter"]["name"] = json!("pdf"))
            .contains("last path segment is \"pdf-processing\""));
        assert!(broken(&|e| e["resources"] = json!(null))
            .contains("neither a list of files nor \"dynamic\""));
        assert!(
            broken(&|e| e["resources"][1]["uri"] = json!("skill://other/FORMS.md"))
                .contains("outside the skill's directory")
        );
        assert!(
            broken(&|e| e["resources"][1]["digest"] = json!("sha256:ABC"))
                .contains("no digest of the form")
        );
        assert!(broken(&|e| e["resources"][1]["size"] = json!(-1)).contains("no size"));
        assert!(
            broken(&|e| e["resources"][1]["uri"] = json!("skill://pdf-processing/SKILL.md"))
                .contains("listed twice")
        );
        assert!(broken(&|e| {
            e["resources"].as_array_mut().unwrap().remove(0);
        })
        .contains("do not include its own SKILL.md"));
        let upper = json!({"uri": "skill://Refunds/SKILL.md", "frontmatter": {"name": "Refunds", "description": "d"}, "resources": "dynamic"});
        assert!(read_entry(&upper)
            .unwrap_err()
            .to_string()
            .starts_with("the skill skill://Refunds/SKILL.md is not offered: its name"));
        let nested = json!({"uri": "skill://acme/billing/refunds/SKILL.md", "frontmatter": {"name": "refunds", "description": "d"}, "resources": "dynamic"});
        let nested = read_entry(&nested).unwrap();
        assert_eq!(
            verify_file(&nested, "skill://acme/billing/refunds/x", b"any"),
            Ok(Verification::Unverifiable)
        );
        assert_eq!(nested.resolve("../../escape.md"), None);
        assert_eq!(
            nested.resolve("./examples/../email.md").as_deref(),
            Some("skill://acme/billing/refunds/email.md")
        );
        assert_eq!(nested.resolve("https://evil.example/x"), None);
    }

    #[test]
    fn limits_capabilities_and_content() {
        let mut big = entry(SKILL_MD);
        big["resources"][1]["size"] = json!(MAX_TOTAL_BYTES);
        assert!(read_entry(&big)
            .unwrap()
            .declined
            .unwrap()
            .contains("16 MiB"));
        assert_eq!(
            server_skills(Some(
                &json!({"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}})
            )),
            ServerSkills {
                declared: true,
                directory_read: true
            }
        );
        assert!(
            !server_skills(Some(
                &json!({"extensions": {"io.modelcontextprotocol/skills": {}}})
            ))
            .directory_read
        );
        assert!(!server_skills(None).declared);
        let blob = json!({"contents": [{"uri": "skill://a/b.bin", "blob": "AQID"}]});
        assert_eq!(content_bytes(&blob, "skill://a/b.bin"), Some(vec![1, 2, 3]));
        assert_eq!(content_bytes(&json!({"contents": []}), "x"), None);
        assert!(
            valid_name("a-b1")
                && !valid_name("a--b")
                && !valid_name("-a")
                && !valid_name(&"a".repeat(65))
        );
        let paged = read_list(&json!({"skills": [], "nextCursor": "c2"}));
        assert_eq!(paged.next_cursor.as_deref(), Some("c2"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_answer_is_read_without_panicking(value in crate::arbitrary::json(), text in ".{0,60}") {
                let page = read_list(&json!({"skills": [value.clone(), entry(&text)]}));
                for skill in page.skills.iter().flatten() {
                    let _ = verify_skill_md(skill, text.as_bytes());
                    let _ = skill.resolve(&text);
                }
                let _ = read_get(&value);
                let _ = content_bytes(&value, &text);
                let _ = server_skills(Some(&value));
            }

            #[test]
            fn a_file_verifies_exactly_when_its_bytes_are_the_listed_ones(listed in ".{0,40}", read in ".{0,40}") {
                let mut value = entry(SKILL_MD);
                value["resources"][1] = json!({"uri": "skill://pdf-processing/references/FORMS.md", "digest": digest(&listed), "size": listed.len()});
                let skill = read_entry(&value).unwrap();
                let verdict = verify_file(&skill, "skill://pdf-processing/references/FORMS.md", read.as_bytes());
                prop_assert_eq!(verdict.is_ok(), listed == read);
            }
        }
    }
}
