//! Where an app is drawn: the display modes (`inline`, `fullscreen`, `pip`) the host offers
//! and which one a request gets, and the container dimensions each mode gives the app.

/// Largest frame size taken from `ui/notifications/size-changed`, in CSS pixels.
pub const MAX_FRAME_PX: u32 = 16_384;

/// `McpUiDisplayMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisplayMode {
    Inline,
    Fullscreen,
    Pip,
}

impl DisplayMode {
    pub fn as_str(self) -> &'static str {
        match self {
            DisplayMode::Inline => "inline",
            DisplayMode::Fullscreen => "fullscreen",
            DisplayMode::Pip => "pip",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "inline" => Some(DisplayMode::Inline),
            "fullscreen" => Some(DisplayMode::Fullscreen),
            "pip" => Some(DisplayMode::Pip),
            _ => None,
        }
    }
}

/// The display mode to switch to when the app asks for `requested` (the spec's "Display
/// Modes" rules): only a mode the host offers and, if the app declared its modes, one it
/// declared; otherwise the current mode stays ("Host SHOULD return the current display mode").
///
/// ```
/// use mcp_lens_protocol::apps::message::{decide_display_mode, DisplayMode::*};
/// assert_eq!(decide_display_mode(Fullscreen, Inline, &[Inline, Fullscreen], None), Fullscreen);
/// assert_eq!(decide_display_mode(Pip, Inline, &[Inline, Fullscreen], None), Inline);
/// assert_eq!(decide_display_mode(Fullscreen, Inline, &[Inline, Fullscreen], Some(&[Inline])), Inline);
/// ```
pub fn decide_display_mode(
    requested: DisplayMode,
    current: DisplayMode,
    host_modes: &[DisplayMode],
    app_modes: Option<&[DisplayMode]>,
) -> DisplayMode {
    let app_ok = app_modes.is_none_or(|modes| modes.contains(&requested));
    if host_modes.contains(&requested) && app_ok {
        requested
    } else {
        current
    }
}

/// The tallest an inline frame may be (`containerDimensions.maxHeight` inline).
pub const INLINE_MAX_HEIGHT: u32 = 6_000;

/// The bar above a full-screen frame (its "Exit" button), in CSS pixels: the frame gets the
/// rest of the viewport.
pub const FULLSCREEN_BAR_PX: u32 = 40;

/// A picture-in-picture frame: at most this wide, at most this tall (and never more than half
/// the viewport's height), this far from the viewport's corner.
pub const PIP_WIDTH_PX: u32 = 400;
pub const PIP_MAX_HEIGHT_PX: u32 = 400;
pub const PIP_MARGIN_PX: u32 = 16;

/// Where the page can put an app's frame, in CSS pixels, as measured in the page: the
/// viewport, and the width the frame has inline (its panel's). 0 = not measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    pub viewport_width: u32,
    pub viewport_height: u32,
    pub inline_width: u32,
}

/// `containerDimensions` as (height, width) for a frame shown in `mode`: inline, the app
/// chooses its height (up to [`INLINE_MAX_HEIGHT`]) within the panel's width; full screen,
/// the viewport below the bar, fixed; picture-in-picture, a fixed width of at most
/// [`PIP_WIDTH_PX`] in a corner, the height the app's up to a cap. What was not measured is
/// left to the app. The page sizes the frame from the same answer, so what the app is told is
/// what it gets.
///
/// ```
/// use mcp_lens_protocol::apps::message::{container_for, Dimension::*, DisplayMode, Layout};
/// let layout = Layout { viewport_width: 1280, viewport_height: 800, inline_width: 640 };
/// assert_eq!(container_for(DisplayMode::Inline, layout), (Max(6000), Max(640)));
/// assert_eq!(container_for(DisplayMode::Fullscreen, layout), (Fixed(760), Fixed(1280)));
/// assert_eq!(container_for(DisplayMode::Pip, layout), (Max(400), Fixed(400)));
/// ```
pub fn container_for(mode: DisplayMode, layout: Layout) -> (Dimension, Dimension) {
    let cap = |px: u32| px.min(MAX_FRAME_PX);
    let known = |px: u32, dim: fn(u32) -> Dimension| {
        if px == 0 {
            Dimension::Unbounded
        } else {
            dim(cap(px))
        }
    };
    let Layout {
        viewport_width: vw,
        viewport_height: vh,
        inline_width,
    } = layout;
    match mode {
        DisplayMode::Inline => (
            Dimension::Max(INLINE_MAX_HEIGHT),
            known(inline_width, Dimension::Max),
        ),
        DisplayMode::Fullscreen => (
            known(vh.saturating_sub(FULLSCREEN_BAR_PX), Dimension::Fixed),
            known(vw, Dimension::Fixed),
        ),
        DisplayMode::Pip => (
            known(PIP_MAX_HEIGHT_PX.min(vh / 2), Dimension::Max),
            known(
                PIP_WIDTH_PX.min(vw.saturating_sub(2 * PIP_MARGIN_PX)),
                Dimension::Fixed,
            ),
        ),
    }
}

/// `McpUiTheme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// One side of `containerDimensions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    /// The host fixes it (`height`/`width`).
    Fixed(u32),
    /// The app decides, up to this (`maxHeight`/`maxWidth`).
    Max(u32),
    /// The app decides (field omitted).
    Unbounded,
}
