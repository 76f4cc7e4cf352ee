//! Which rows of a long list are drawn: the visible ones and a margin, in a scroll container
//! of fixed-height rows (the rest is padding of the same height, so the scrollbar is right).
//! Pure, tested natively.

/// The height of one row in pixels; `style/main.css` gives `.items > .item` this height.
pub const ROW_HEIGHT: f64 = 48.0;
/// Rows drawn above and below the visible ones, so a little scrolling shows drawn rows.
pub const MARGIN_ROWS: usize = 10;
/// Lists this short are drawn whole (the page's find sees every row); longer ones by window.
pub const WHOLE_LIST_MAX: usize = 300;

/// The rows `[start, end)` to draw of `total` rows `row_height` pixels high, the container
/// scrolled `scroll_top` pixels down and showing `viewport` pixels. Total on any input: a
/// scroll position past the end (the list just got shorter) shows the last rows; negative,
/// infinite or NaN sizes count as zero.
pub fn visible(total: usize, row_height: f64, scroll_top: f64, viewport: f64) -> (usize, usize) {
    if total <= WHOLE_LIST_MAX {
        return (0, total);
    }
    in_view(total, row_height, scroll_top, viewport)
}

/// The rows in view and a margin, however short the list (a short list's first drawing after
/// a filter edit: the rest comes after that frame is painted).
pub fn in_view(total: usize, row_height: f64, scroll_top: f64, viewport: f64) -> (usize, usize) {
    if !(row_height.is_finite() && row_height > 0.0) {
        return (0, total);
    }
    let clean = |px: f64| if px.is_finite() && px > 0.0 { px } else { 0.0 };
    // Float-to-int casts saturate, so a huge position cannot overflow.
    let first = (clean(scroll_top) / row_height) as usize;
    let count = ((clean(viewport) / row_height).ceil() as usize).saturating_add(1);
    let first = first.min(total.saturating_sub(count));
    let start = first.saturating_sub(MARGIN_ROWS);
    let end = first
        .saturating_add(count)
        .saturating_add(MARGIN_ROWS)
        .min(total);
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_are_drawn_whole() {
        assert_eq!(visible(0, ROW_HEIGHT, 0.0, 800.0), (0, 0));
        assert_eq!(visible(250, ROW_HEIGHT, 5000.0, 800.0), (0, 250));
        assert_eq!(
            visible(WHOLE_LIST_MAX, ROW_HEIGHT, 0.0, 800.0),
            (0, WHOLE_LIST_MAX)
        );
    }

    #[test]
    fn long_lists_draw_the_visible_rows_and_a_margin() {
        // 800 px show 17 rows (16.7, plus one cut at each edge).
        assert_eq!(visible(5000, 48.0, 0.0, 800.0), (0, 18 + MARGIN_ROWS));
        let (start, end) = visible(5000, 48.0, 48.0 * 1000.0, 800.0);
        assert_eq!((start, end), (1000 - MARGIN_ROWS, 1000 + 18 + MARGIN_ROWS));
        // Half a row scrolled: the row cut at the top is still drawn.
        assert_eq!(visible(5000, 48.0, 48.0 * 1000.0 + 24.0, 800.0).0, start);
    }

    #[test]
    fn in_view_windows_short_lists_too() {
        assert_eq!(in_view(100, 48.0, 0.0, 800.0), (0, 18 + MARGIN_ROWS));
        assert_eq!(in_view(10, 48.0, 0.0, 800.0), (0, 10));
        assert_eq!(in_view(0, 48.0, 0.0, 800.0), (0, 0));
        // The same window as a long list's.
        assert_eq!(
            in_view(5000, 48.0, 4800.0, 800.0),
            visible(5000, 48.0, 4800.0, 800.0)
        );
        assert_eq!(in_view(100, f64::NAN, 0.0, 800.0), (0, 100));
    }

    #[test]
    fn a_position_past_the_end_shows_the_last_rows() {
        let (start, end) = visible(1000, 48.0, 1e9, 800.0);
        assert_eq!(end, 1000);
        assert_eq!(start, 1000 - 18 - MARGIN_ROWS);
        assert_eq!(visible(1000, 48.0, f64::INFINITY, 800.0).0, 0); // not a position
    }

    #[test]
    fn nonsense_sizes_do_not_panic() {
        for (top, viewport) in [
            (f64::NAN, f64::NAN),
            (-100.0, -5.0),
            (f64::NEG_INFINITY, f64::INFINITY),
            (f64::MAX, f64::MAX),
        ] {
            let (start, end) = visible(100_000, 48.0, top, viewport);
            assert!(start <= end && end <= 100_000, "{top} {viewport}");
        }
        assert_eq!(visible(1000, 0.0, 10.0, 10.0), (0, 1000));
        assert_eq!(visible(1000, f64::NAN, 10.0, 10.0), (0, 1000));
        assert_eq!(visible(usize::MAX, 48.0, f64::MAX, f64::MAX).1, usize::MAX);
    }
}
