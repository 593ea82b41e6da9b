/// What the app keeps in memory between requests, in one place: each cache, what it holds, its size,
/// and what keeps it fresh. Handlers reach them through `RequestContext.caches`.
struct Caches: Sendable {
    /// Signed-in sessions and whole pages; emptied by commits to the tables it watches (see `ReadCache`).
    let pages = ReadCache()
    /// Boards' grids and worklist cards, 2 × 12 MB. It was 2 × 24 MB while a grid not kept was rendered
    /// whole; with its cells kept (`boardCells`) and read in one statement, one costs about 1 ms where a
    /// kept one costs 0.1, and at ten times the clinic the smaller cache keeps memory under 150 MB.
    let fragments = FragmentCache(generationBytes: 12 << 20)
    /// The usage history's rows, apart and smaller (2 × 4 MB: the last 50 taps of 280 to 560
    /// patients). In the shared cache, at ten times the clinic, histories opened once each churned
    /// through it and pushed the children's boards out (`bench/mixed --scale 10`: 164 MB resident
    /// after run 2 and run 1 at 885 requests/s; apart, 141 MB and 1 075).
    let usageRows = FragmentCache(generationBytes: 4 << 20)
    /// Board cells, each rendered once for every grid that shows it (see `PlayerGrid`); 2 × 4 MB holds
    /// the symbols of 500 speech therapists' boards, each cell about 700 bytes with its key.
    let boardCells = FragmentCache(generationBytes: 4 << 20)
    /// Pieces of pages (`RequestContext.piece`: a meal of the nutritionist's week), 2 × 2 MB, apart so
    /// that a week opened does not push the children's boards out of `fragments`.
    let pieces = PieceCache(generationBytes: 2 << 20)
    /// Each clinician's worklist signals between loads, kept fresh by triggers; see `CaseloadSignals`.
    let caseloads = CaseloadSignals()
}
