fn main() {
    mcp_lens::mount();
}
