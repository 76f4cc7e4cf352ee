//! Skills (SEP-2640, the experimental extension `io.modelcontextprotocol/skills`): the list
//! (`skills/list`, every page), and one file of a skill read (`resources/read`) only when the
//! person opens it, checked against the skill's entry before it is used. The rules (what makes
//! an entry valid, how a file is verified) are `mcp_lens_protocol::skills`.

use crate::client::McpClient;
use crate::lists::MAX_PAGES;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::skills::{
    content_bytes, read_list, verify_file, verify_skill_md, InvalidSkill, Skill, SkillFiles,
    Verification, SKILLS_LIST,
};
use serde_json::json;

/// A file of a skill as read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFileRead {
    pub uri: String,
    /// The content as text (a file that is not UTF-8 is shown as its size only).
    pub text: Option<String>,
    pub bytes: usize,
    pub verification: Verification,
}

impl McpClient {
    /// Every skill the server lists (following `nextCursor`), each valid entry or the reason
    /// it is not offered. Reads no file.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// for skill in client.list_skills().await? {
    ///     match skill {
    ///         Ok(skill) => println!("{}: {}", skill.name, skill.description),
    ///         Err(invalid) => println!("{invalid}"),
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn list_skills(&self) -> Result<Vec<Result<Skill, InvalidSkill>>, McpError> {
        let (pages, _) = self
            .list_pages(Step::ListSkills, SKILLS_LIST, None, MAX_PAGES)
            .await?;
        Ok(pages
            .iter()
            .flat_map(|page| read_list(page).skills)
            .collect())
    }

    /// Reads one of `skill`'s files (its `SKILL.md` when `uri` is the skill's own) and checks
    /// it against the entry: listed, its size, its SHA-256 digest, and for `SKILL.md` its
    /// frontmatter field by field. Content that fails is not returned: the error says why.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient, skill: mcp_lens_client::protocol::skills::Skill) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let read = client.read_skill_file(&skill, &skill.uri).await?;
    /// println!("{}", read.text.unwrap_or_default());
    /// # Ok(()) }
    /// ```
    pub async fn read_skill_file(
        &self,
        skill: &Skill,
        uri: &str,
    ) -> Result<SkillFileRead, McpError> {
        let fail = |kind| McpError::new(Step::ReadSkill, kind);
        let not_used = |detail: String| fail(ErrorKind::NotSent { detail });
        if let Some(why) = &skill.declined {
            return Err(not_used(why.clone()));
        }
        // An unlisted file is refused before anything is read.
        if matches!(skill.files, SkillFiles::Listed(_)) && skill.file(uri).is_none() {
            return Err(not_used(format!(
                "{uri} is not one of the skill's listed files"
            )));
        }
        let result = self
            .request(
                Step::ReadSkill,
                mcp::RESOURCES_READ,
                Some(json!({ "uri": uri })),
            )
            .await?;
        let bytes = content_bytes(&result, uri).ok_or_else(|| {
            fail(ErrorKind::InvalidAnswer {
                detail: format!("the read of {uri} carries no text or blob content"),
            })
        })?;
        let verified = if uri == skill.uri {
            verify_skill_md(skill, &bytes)
        } else {
            verify_file(skill, uri, &bytes)
        };
        let verification = verified.map_err(|failure| {
            fail(ErrorKind::InvalidAnswer {
                detail: failure.to_string(),
            })
        })?;
        Ok(SkillFileRead {
            uri: uri.to_owned(),
            bytes: bytes.len(),
            text: String::from_utf8(bytes).ok(),
            verification,
        })
    }
}
