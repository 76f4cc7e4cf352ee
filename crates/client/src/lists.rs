//! The lists: every page or one page at a time (following `nextCursor`, decoded page by page
//! with pauses for the page), the first page of each at connect, and the re-lists after the
//! server announced a change (at most one fetch per kind in flight: `state::lists`), and each
//! list's lifetime (SEP-2549: no re-list of a fresh list unless asked or changed).

use crate::client::McpClient;
use crate::engine::decode;
use crate::events::{ClientEvent, ListKind, ListPage, ListUpdate};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::caching::{ListLifetime, RelistReason};
use mcp_lens_protocol::error::{McpError, Step};
use mcp_lens_protocol::mcp;
use rmcp::model::{
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt,
    Resource, ResourceTemplate, Tool,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// A server that keeps handing out cursors is cut off after this many pages.
pub(crate) const MAX_PAGES: usize = 100;

impl McpClient {
    pub(crate) async fn list_if<T, F, Fut>(
        &self,
        offered: bool,
        list: F,
    ) -> Option<Result<ListPage<T>, McpError>>
    where
        F: FnOnce(McpClient) -> Fut,
        Fut: std::future::Future<Output = Result<ListPage<T>, McpError>>,
    {
        if !offered {
            return None;
        }
        // A server that advertises a kind but does not implement its list method has none
        // of it: nothing to warn about.
        Some(match list(self.clone()).await {
            Err(error) if error.is_method_not_found() => Ok(ListPage {
                items: Vec::new(),
                next_cursor: None,
            }),
            other => other,
        })
    }

    /// Every tool, following `nextCursor` (up to 100 pages; a repeated cursor ends the list).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let tools = client.clone().list_tools().await?;
    /// println!("{}", tools.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_tools(self) -> Result<Vec<Tool>, McpError> {
        self.tools_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of tools: the first (`None`) or the one a `nextCursor` names.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let first = client.list_tools_page(None).await?;
    /// if let Some(cursor) = &first.next_cursor {
    ///     let second = client.list_tools_page(Some(cursor)).await?;
    ///     println!("{} more", second.items.len());
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn list_tools_page(&self, cursor: Option<&str>) -> Result<ListPage<Tool>, McpError> {
        self.tools_from(cursor.map(str::to_owned), 1).await
    }

    /// Every prompt, following `nextCursor`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let prompts = client.clone().list_prompts().await?;
    /// println!("{}", prompts.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_prompts(self) -> Result<Vec<Prompt>, McpError> {
        self.prompts_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of prompts (see [`McpClient::list_tools_page`]).
    pub async fn list_prompts_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<Prompt>, McpError> {
        self.prompts_from(cursor.map(str::to_owned), 1).await
    }

    /// Every resource, following `nextCursor`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let resources = client.clone().list_resources().await?;
    /// println!("{}", resources.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_resources(self) -> Result<Vec<Resource>, McpError> {
        self.resources_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of resources (see [`McpClient::list_tools_page`]).
    pub async fn list_resources_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<Resource>, McpError> {
        self.resources_from(cursor.map(str::to_owned), 1).await
    }

    /// A server that offers resources but no templates may not know the method at all:
    /// that is an empty list, not a failure.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let templates = client.clone().list_resource_templates().await?;
    /// println!("{}", templates.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_resource_templates(self) -> Result<Vec<ResourceTemplate>, McpError> {
        self.templates_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of resource templates (see [`McpClient::list_tools_page`]).
    pub async fn list_resource_templates_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<ResourceTemplate>, McpError> {
        self.templates_from(cursor.map(str::to_owned), 1).await
    }

    /// Continues a list of `kind` from `cursor` (a `nextCursor`): one page, or with `all`
    /// every page to the end (up to 100). Gives the items as a [`ListUpdate`] (to append to
    /// what was listed so far) and the cursor that continues it (`None`: complete).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) {
    /// use mcp_lens_client::{ListKind, ListUpdate};
    /// let (more, next) = client.list_more(ListKind::Tools, "page-2", false).await;
    /// if let ListUpdate::Tools(Ok(tools)) = more {
    ///     println!("{} more tools, complete: {}", tools.len(), next.is_none());
    /// }
    /// # }
    /// ```
    pub async fn list_more(
        &self,
        kind: ListKind,
        cursor: &str,
        all: bool,
    ) -> (ListUpdate, Option<String>) {
        let pages = if all { MAX_PAGES } else { 1 };
        self.list_of(kind, Some(cursor.to_owned()), pages).await
    }

    /// Up to `pages` pages of a list from `start`, as a list update and the next cursor.
    pub(crate) async fn list_of(
        &self,
        kind: ListKind,
        start: Option<String>,
        pages: usize,
    ) -> (ListUpdate, Option<String>) {
        fn split<T>(
            page: Result<ListPage<T>, McpError>,
        ) -> (Result<Vec<T>, McpError>, Option<String>) {
            match page {
                Ok(page) => (Ok(page.items), page.next_cursor),
                Err(error) => (Err(error), None),
            }
        }
        match kind {
            ListKind::Tools => {
                let (items, next) = split(self.tools_from(start, pages).await);
                (ListUpdate::Tools(items), next)
            }
            ListKind::Prompts => {
                let (items, next) = split(self.prompts_from(start, pages).await);
                (ListUpdate::Prompts(items), next)
            }
            ListKind::Resources => {
                let (items, next) = split(self.resources_from(start, pages).await);
                (ListUpdate::Resources(items), next)
            }
            ListKind::Templates => {
                let (items, next) = split(self.templates_from(start, pages).await);
                (ListUpdate::Templates(items), next)
            }
        }
    }

    pub(crate) async fn tools_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Tool>, McpError> {
        self.list_kind(
            Step::ListTools,
            mcp::TOOLS_LIST,
            start,
            pages,
            |page: ListToolsResult| page.tools,
        )
        .await
    }

    pub(crate) async fn prompts_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Prompt>, McpError> {
        self.list_kind(
            Step::ListPrompts,
            mcp::PROMPTS_LIST,
            start,
            pages,
            |page: ListPromptsResult| page.prompts,
        )
        .await
    }

    pub(crate) async fn resources_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Resource>, McpError> {
        self.list_kind(
            Step::ListResources,
            mcp::RESOURCES_LIST,
            start,
            pages,
            |page: ListResourcesResult| page.resources,
        )
        .await
    }

    pub(crate) async fn templates_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<ResourceTemplate>, McpError> {
        self.list_kind(
            Step::ListResourceTemplates,
            mcp::RESOURCE_TEMPLATES_LIST,
            start,
            pages,
            |page: ListResourceTemplatesResult| page.resource_templates,
        )
        .await
    }

    /// Up to `pages` pages from `start`, decoded. A server that does not know the templates
    /// method has none (resources without templates are common).
    async fn list_kind<P: DeserializeOwned, T>(
        &self,
        step: Step,
        method: &'static str,
        start: Option<String>,
        pages: usize,
        items: impl Fn(P) -> Vec<T>,
    ) -> Result<ListPage<T>, McpError> {
        let start_is_first = start.is_none();
        let (raw, next_cursor) = match self.list_pages(step, method, start, pages).await {
            Err(error) if error.is_method_not_found() && method == mcp::RESOURCE_TEMPLATES_LIST => {
                return Ok(ListPage {
                    items: Vec::new(),
                    next_cursor: None,
                })
            }
            other => other?,
        };
        if method == mcp::TOOLS_LIST {
            self.lists().remember_task_support(&raw, start_is_first);
        }
        if let Some(kind) = list_kind_of(method) {
            self.lists()
                .received(kind, &raw, start_is_first, self.now_ms() as u64);
        }
        // Hundreds of items: reading the answer (the task it arrived in), decoding it and
        // drawing it (the caller's) are tasks of their own; at connect, the three made one
        // task of 60-90 ms for a page of 500 tools.
        let many = raw.iter().map(item_count).sum::<usize>() >= MANY_ITEMS;
        if many {
            self.yield_now().await;
        }
        // Page by page, letting the page breathe between bursts: "Load all" of 5,000 tools
        // decoded at once was one task of 30-90 ms.
        let mut decoded = Vec::new();
        let mut pacer = self.pacer();
        let pages = raw.len();
        for (n, page) in raw.into_iter().enumerate() {
            decoded.extend(items(decode(step, method, page)?));
            // Between pages only: after the last one the caller goes on at once.
            if n + 1 < pages {
                pacer.pace().await;
            }
        }
        if many {
            self.yield_now().await;
        }
        Ok(ListPage {
            items: decoded,
            next_cursor,
        })
    }

    /// Fetches up to `max_pages` pages of a list from `start`, following `nextCursor`, as
    /// raw results, and the cursor that continues it (`None` once a page has none, or repeats
    /// the cursor that asked for it).
    pub(crate) async fn list_pages(
        &self,
        step: Step,
        method: &'static str,
        start: Option<String>,
        max_pages: usize,
    ) -> Result<(Vec<Value>, Option<String>), McpError> {
        let mut pages = Vec::new();
        let mut cursor = start;
        for _ in 0..max_pages {
            let params = cursor.clone().map(|c| json!({ "cursor": c }));
            let page = self.request(step, method, params).await?;
            let next = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            pages.push(page);
            match next {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => return Ok((pages, None)),
            }
        }
        Ok((pages, cursor))
    }

    /// A list changed on the server: fetch its first page again and hand it to the page.
    pub(crate) fn relist(&self, kind: ListKind) {
        self.relist_when(kind, false);
    }

    /// A list's lifetime (SEP-2549) as its first page gave it and the pages since: `None`
    /// before it was first listed.
    pub fn list_lifetime(&self, kind: ListKind) -> Option<ListLifetime> {
        self.lists().lifetime(kind)
    }

    /// The lifetime in a few words for the list's header ("fresh for 4 min"), now.
    pub fn describe_list_lifetime(&self, kind: ListKind) -> Option<String> {
        let now = self.now_ms() as u64;
        self.list_lifetime(kind).map(|held| held.describe(now))
    }

    /// Lists `kind` again (its first page, as a [`ClientEvent::ListChanged`]) when its
    /// lifetime allows it for `reason`: a fresh list is not fetched again because the app
    /// needs it, only when the person asks or the server said it changed. Returns whether a
    /// fetch was started. A list never fetched is left to the connect (it lists what the
    /// server offers) unless the person asks.
    ///
    /// ```no_run
    /// # fn run(client: mcp_lens_client::McpClient) {
    /// use mcp_lens_client::protocol::caching::RelistReason;
    /// use mcp_lens_client::ListKind;
    /// // A tab opened: no request while the tools list is fresh.
    /// let fetching = client.refresh_list(ListKind::Tools, RelistReason::Needed);
    /// # let _ = fetching; }
    /// ```
    pub fn refresh_list(&self, kind: ListKind, reason: RelistReason) -> bool {
        let now = self.now_ms() as u64;
        let allowed = match self.list_lifetime(kind) {
            Some(held) => held.may_relist(now, reason),
            None => reason == RelistReason::PersonAsked,
        };
        if allowed && !self.session().is_closed() {
            self.relist(kind);
            return true;
        }
        false
    }

    /// Fetches a list once the page is idle after painting (what the connect result does not
    /// need): not in the frame that shows the result, nor in the tasks queued right behind it.
    pub(crate) fn relist_after_paint(&self, kind: ListKind) {
        self.relist_when(kind, true);
    }

    /// At most one re-list per kind is in flight: a change announced meanwhile is served by
    /// exactly one more re-list once it ends (however many announcements came), so the lists
    /// arrive in the order they were fetched and an older one never replaces a newer one.
    fn relist_when(&self, kind: ListKind, after_painting: bool) {
        if !self.lists().start(kind) {
            return;
        }
        self.spawn_relist(kind, after_painting.then(|| self.runtime().clock.idle()));
    }

    /// Fetches a claimed kind, again as long as changes were announced meanwhile.
    fn spawn_relist(&self, kind: ListKind, painted: Option<LocalBoxFuture<'static, ()>>) {
        let client = self.background();
        self.spawn(async move {
            if let Some(painted) = painted {
                painted.await;
            }
            loop {
                // The first page, like connect: a paginating server's list starts over.
                let (update, next) = client.list_of(kind, None, 1).await;
                if !client.session().is_closed() {
                    client.emit(ClientEvent::ListChanged(update));
                    if let Some(cursor) = next {
                        client.emit(ClientEvent::NextCursor { kind, cursor });
                    }
                }
                if !client.lists().finish(kind) {
                    break;
                }
            }
        });
    }

    /// Runs a list fetch of the connect path as the kind's one fetch in flight: a change
    /// announced while it runs is fetched again after it (as a list update).
    pub(crate) async fn connect_list<T>(
        &self,
        kind: ListKind,
        list: impl std::future::Future<Output = T>,
    ) -> T {
        let started = self.lists().start(kind);
        let listed = list.await;
        if started && self.lists().finish(kind) {
            self.spawn_relist(kind, None);
        }
        listed
    }
}

/// The list a list method fetches.
fn list_kind_of(method: &str) -> Option<ListKind> {
    match method {
        mcp::TOOLS_LIST => Some(ListKind::Tools),
        mcp::PROMPTS_LIST => Some(ListKind::Prompts),
        mcp::RESOURCES_LIST => Some(ListKind::Resources),
        mcp::RESOURCE_TEMPLATES_LIST => Some(ListKind::Templates),
        _ => None,
    }
}

/// A list this long is decoded in a task of its own (see `list_kind`).
const MANY_ITEMS: usize = 100;

/// How many items a list page holds (its arrays: `tools`, `prompts`, ...), unchecked.
fn item_count(page: &Value) -> usize {
    page.as_object().map_or(0, |page| {
        page.values()
            .filter_map(Value::as_array)
            .map(Vec::len)
            .sum()
    })
}

pub(crate) fn decode_pages<P: DeserializeOwned, T>(
    step: Step,
    method: &str,
    pages: Vec<Value>,
    items: impl Fn(P) -> Vec<T>,
) -> Result<Vec<T>, McpError> {
    let mut all = Vec::new();
    for page in pages {
        all.extend(items(decode(step, method, page)?));
    }
    Ok(all)
}
