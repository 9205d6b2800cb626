//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with
//! dual variables, the O(n³) form described by Galil, "Efficient algorithms
//! for finding maximum matching in graphs", 1986).
//!
//! The weights are any ordered abelian group that can be halved ([`Weight`]):
//! the Dutch system uses [`Lex`], a vector of criteria compared in priority
//! order, so that one matching optimises C.04.3's criteria one after another
//! (as bbpPairings packs them into one multi-precision weight).

use std::ops::{Add, Sub};

/// An edge weight: an ordered abelian group whose elements can be halved
/// exactly when even (the algorithm doubles every weight first).
///
/// ```
/// use arbiter_tournament::matching::Weight;
/// assert_eq!(6i64.half(), 3);
/// ```
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    /// The most significant word of a weight: sums and differences of
    /// weights have as their head the sums and differences of the heads, and
    /// of two weights with different heads the one with the higher head is
    /// the higher (a [`Lex`]'s first criterion; a plain number itself). The
    /// matching's edge scan compares heads first and reads whole weights
    /// only on a tie.
    type Head: Copy + Ord + Add<Output = Self::Head> + Sub<Output = Self::Head>;
    /// The head of this weight.
    fn head(&self) -> Self::Head;
    /// Zero.
    fn zero() -> Self;
    /// Half of an even value.
    fn half(self) -> Self;
    /// The least even value not below this one (each word of a [`Lex`]).
    fn round_even(self) -> Self;
}

impl Weight for i64 {
    type Head = i64;
    fn head(&self) -> i64 {
        *self
    }
    fn zero() -> i64 {
        0
    }
    fn half(self) -> i64 {
        self / 2
    }
    fn round_even(self) -> i64 {
        self + (self & 1)
    }
}

impl Weight for i128 {
    type Head = i128;
    fn head(&self) -> i128 {
        *self
    }
    fn zero() -> i128 {
        0
    }
    fn half(self) -> i128 {
        self / 2
    }
    fn round_even(self) -> i128 {
        self + (self & 1)
    }
}

/// A weight made of `N` criteria compared lexicographically (the first one
/// most important); sums are taken criterion by criterion.
///
/// ```
/// use arbiter_tournament::matching::Lex;
/// let a = Lex([1, 0, 0]);
/// let b = Lex([0, 100, 100]);
/// assert!(a > b);
/// assert_eq!(a + b, Lex([1, 100, 100]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lex<const N: usize>(pub [i128; N]);

impl<const N: usize> Add for Lex<N> {
    type Output = Self;
    fn add(mut self, o: Self) -> Self {
        for i in 0..N {
            self.0[i] += o.0[i];
        }
        self
    }
}
impl<const N: usize> Sub for Lex<N> {
    type Output = Self;
    fn sub(mut self, o: Self) -> Self {
        for i in 0..N {
            self.0[i] -= o.0[i];
        }
        self
    }
}
impl<const N: usize> Weight for Lex<N> {
    type Head = i128;
    fn head(&self) -> i128 {
        self.0.first().copied().unwrap_or(0)
    }
    fn zero() -> Self {
        Lex([0; N])
    }
    fn half(mut self) -> Self {
        for x in &mut self.0 {
            *x /= 2;
        }
        self
    }
    fn round_even(mut self) -> Self {
        for x in &mut self.0 {
            *x += *x & 1;
        }
        self
    }
}

const NONE: usize = usize::MAX;

/// Empties `v` and fills it with `len` copies of `x`; a buffer too small is
/// freed and replaced by one at least twice its size (no copy of the old
/// contents, few replacements as the graphs grow).
fn fit<T: Clone>(v: &mut Vec<T>, len: usize, x: T) {
    v.clear();
    if v.capacity() < len {
        let cap = len.max(2 * v.capacity());
        *v = Vec::new();
        *v = Vec::with_capacity(cap);
    }
    v.resize(len, x);
}

/// Computes a maximum-weight matching of the graph with `n` vertices and the
/// given edges `(u, v, weight)`; returns each vertex's mate. Edges with a
/// weight not above zero are never needed in a maximum-weight matching and
/// may be left out by the caller.
///
/// ```
/// use arbiter_tournament::matching::max_weight_matching;
/// // A path 0-1-2-3: the two outer edges (3 + 3) beat the middle one (5).
/// let mates = max_weight_matching(4, &[(0, 1, 3i64), (1, 2, 5), (2, 3, 3)]);
/// assert_eq!(mates, vec![Some(1), Some(0), Some(3), Some(2)]);
/// ```
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut m = Matcher::empty();
    m.load(n, edges.iter().copied());
    m.solve();
    (0..n)
        .map(|v| {
            let p = m.mate[v];
            (p != NONE).then(|| m.endpoint[p])
        })
        .collect()
}

/// As [`max_weight_matching`], also giving each vertex's dual variable at the
/// end, doubled (the algorithm works on doubled weights): `2·y(v)`. With the
/// blossoms' variables (not returned, all ≥ 0) they prove the matching best,
/// so every edge `(u, v, w)` of every maximum-weight matching has
/// `dual[u] + dual[v] − 2w ≤ 0` (complementary slackness): the edges with a
/// positive value here are in none.
///
/// ```
/// use arbiter_tournament::matching::max_weight_matching_duals;
/// let edges = [(0, 1, 3i64), (1, 2, 5), (2, 3, 3)];
/// let (mates, dual) = max_weight_matching_duals(4, &edges);
/// assert_eq!(mates, vec![Some(1), Some(0), Some(3), Some(2)]);
/// // No blossom here: every edge is feasible, the matched ones tight.
/// for &(u, v, w) in &edges {
///     assert!(dual[u] + dual[v] >= 2 * w);
/// }
/// assert_eq!(dual[0] + dual[1], 6);
/// ```
pub fn max_weight_matching_duals<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> (Vec<Option<usize>>, Vec<W>) {
    if edges.is_empty() || n == 0 {
        return (vec![None; n], vec![W::zero(); n]);
    }
    let mut m = Matcher::empty();
    m.load(n, edges.iter().copied());
    m.solve();
    let mates = (0..n)
        .map(|v| {
            let p = m.mate[v];
            (p != NONE).then(|| m.endpoint[p])
        })
        .collect();
    m.dual.truncate(n);
    (mates, m.dual)
}

/// A maximum-weight matching solved again after its graph changed a little
/// (vertices gone, weights changed): the previous solution's duals (each
/// blossom's shared out to its vertices), raised where an edge needs it, and
/// its pairs that stay tight start the search, so only the vertices the
/// changes set free are matched again.
///
/// ```
/// use arbiter_tournament::matching::Rematcher;
/// let mut r = Rematcher::default();
/// let mates = r.solve(4, vec![(0, 1, 3i64), (1, 2, 5), (2, 3, 3)], &[None; 4]);
/// assert_eq!(mates, vec![Some(1), Some(0), Some(3), Some(2)]);
/// // Vertex 3 gone, the others kept (new index -> old index).
/// let mates = r.solve(3, vec![(0, 1, 3), (1, 2, 5)], &[Some(0), Some(1), Some(2)]);
/// assert_eq!(mates, vec![None, Some(2), Some(1)]);
/// ```
pub struct Rematcher<W: Weight> {
    last: Option<Solution<W>>,
    /// The matcher, its buffers kept from one matching to the next (a
    /// large bracket's graph takes tens of megabytes).
    m: Matcher<W>,
}

/// A matching with the dual solution that proves it best: what
/// [`Rematcher`] starts the next matching from.
///
/// ```
/// use arbiter_tournament::matching::Rematcher;
/// let mut r = Rematcher::default();
/// r.solve(2, vec![(0, 1, 3i64)], &[None; 2]);
/// let s = r.take().unwrap();
/// assert_eq!(s.mates, vec![Some(1), Some(0)]);
/// // Doubled duals: the pair's sum to twice its weight.
/// assert_eq!(s.duals[0] + s.duals[1], 6);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution<W> {
    /// Each vertex's mate.
    pub mates: Vec<Option<usize>>,
    /// Each vertex's dual variable, doubled, with the variables of the
    /// blossoms around it added (so that every edge has the slack it had).
    pub duals: Vec<W>,
}

impl<W> Solution<W> {
    /// The same solution over another weight type (`f` must preserve the
    /// order and the sums, as widening a [`Lex`] does).
    pub fn map<V>(self, f: impl Fn(W) -> V) -> Solution<V> {
        Solution {
            mates: self.mates,
            duals: self.duals.into_iter().map(f).collect(),
        }
    }
}

impl<W: Weight> Default for Rematcher<W> {
    fn default() -> Self {
        Rematcher {
            last: None,
            m: Matcher::empty(),
        }
    }
}

impl<W: Weight> Rematcher<W> {
    /// A rematcher whose next matching starts from `last`.
    pub fn from_solution(last: Solution<W>) -> Self {
        Rematcher {
            last: Some(last),
            m: Matcher::empty(),
        }
    }

    /// Starts the next matching from `last` (cold if `None`), keeping the
    /// buffers.
    pub fn restart_from(&mut self, last: Option<Solution<W>>) {
        self.last = last;
    }

    /// The last solution, taken out (the next matching starts cold).
    pub fn take(&mut self) -> Option<Solution<W>> {
        self.last.take()
    }

    /// A maximum-weight matching of `n` vertices and `edges` (as
    /// [`max_weight_matching`]); `carry[v]` is the vertex of the previous
    /// call that `v` is now, if any (the rest start afresh).
    pub fn solve<I>(&mut self, n: usize, edges: I, carry: &[Option<usize>]) -> Vec<Option<usize>>
    where
        I: IntoIterator<Item = (usize, usize, W)>,
        I::IntoIter: Clone,
    {
        let m = &mut self.m;
        m.load(n, edges);
        let empty = m.at.is_empty();
        if let Some(old) = self.last.take() {
            m.warm_from(&old, carry);
        }
        if n > 0 && !empty {
            m.solve();
        }
        let last = m.solution();
        let mates = last.mates.clone();
        self.last = Some(last);
        mates
    }
}

/// An edge met by the scan of a vertex's edges: its place in `adj`, its
/// ends (`v` scanned), the head of its slack and, once a test of the heads
/// tied, its whole slack.
struct Scanned<W: Weight> {
    at: usize,
    v: usize,
    w: usize,
    head: W::Head,
    whole: Option<W>,
}

struct Matcher<W: Weight> {
    n: usize,
    /// Edge `k` joins `endpoint[2k]` and `endpoint[2k + 1]`; endpoint `p` is
    /// the end `endpoint[p]` of edge `p / 2`.
    endpoint: Vec<usize>,
    /// Where edge `k` is in `adj` (in the list of `endpoint[2k]`).
    at: Vec<u32>,
    /// Vertex `v`'s edges are `adj[start[v]..start[v + 1]]`, by edge
    /// number: the neighbour and the endpoint `p` at it (as in `mate`), with
    /// the head of the (doubled) weight at the same place in `adj_head` and
    /// the whole weight in `adj_weight`, so that the scan reads two stretches
    /// of small records and the whole weight only when the heads tie.
    start: Vec<usize>,
    adj: Vec<(u32, u32)>,
    adj_head: Vec<W::Head>,
    /// The whole weights, in the order of `adj`.
    adj_weight: Vec<W>,
    /// Scratch: per vertex, the next free place in `adj` while loading;
    /// per blossom, the best edge to it while a blossom is made.
    scratch: Vec<usize>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    endps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// `bestedge`'s slack plus the stage's `elapsed` (once for a vertex
    /// outside every labelled blossom, twice for an S-blossom), when `keyed`:
    /// the slack then falls by exactly what `elapsed` grows, so the key stays
    /// valid until `bestedge` or the label changes, and the delta steps
    /// compare keys without re-reading edges and duals.
    key: Vec<W>,
    keyed: Vec<bool>,
    /// The sum of this stage's deltas.
    elapsed: W,
    /// Twice `elapsed` (an S-blossom's key offset).
    twice: W,
    bestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    /// The heads of the vertices' duals, side by side for the scan.
    dual_head: Vec<W::Head>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
    /// Per vertex, its edges to the roots of some stage (each a vertex
    /// alone) by slack, least first: `order[start[v]..start[v] + cnt[v]]`
    /// (places in `adj`), the first `ptr[v]` of them to roots no longer.
    /// While the roots stay roots their duals fall alike, so the order of
    /// the slacks of a vertex's edges to them stays (the difference of two
    /// is that of the roots' duals less that of the weights), and a stage
    /// finds every best edge from them instead of scanning every root
    /// ([`Matcher::best_from_lists`]).
    order: Vec<u32>,
    cnt: Vec<u32>,
    ptr: Vec<u32>,
    /// The roots and the duals when the lists were made.
    list_root: Vec<bool>,
    list_dual: Vec<W>,
    /// Lists made for this matching, and the stages they served since.
    lists: bool,
    served: usize,
    /// No more lists for this matching (the last served too few stages).
    no_lists: bool,
    /// Lists only for stages with at least this many roots (below, the
    /// scan is cheap); the tests set 1.
    list_min_roots: usize,
}

impl<W: Weight> Matcher<W> {
    fn empty() -> Self {
        Matcher {
            n: 0,
            endpoint: Vec::new(),
            at: Vec::new(),
            start: Vec::new(),
            adj: Vec::new(),
            adj_head: Vec::new(),
            adj_weight: Vec::new(),
            scratch: Vec::new(),
            mate: Vec::new(),
            label: Vec::new(),
            labelend: Vec::new(),
            inblossom: Vec::new(),
            parent: Vec::new(),
            childs: Vec::new(),
            base: Vec::new(),
            endps: Vec::new(),
            bestedge: Vec::new(),
            key: Vec::new(),
            keyed: Vec::new(),
            elapsed: W::zero(),
            twice: W::zero(),
            bestedges: Vec::new(),
            unused: Vec::new(),
            dual: Vec::new(),
            dual_head: Vec::new(),
            allowed: Vec::new(),
            queue: Vec::new(),
            order: Vec::new(),
            cnt: Vec::new(),
            ptr: Vec::new(),
            list_root: Vec::new(),
            list_dual: Vec::new(),
            lists: false,
            served: 0,
            no_lists: false,
            list_min_roots: 32,
        }
    }

    /// Sets up a cold start on the graph of `n` vertices and `edges`
    /// (read twice), in the buffers of the matching before.
    fn load<I>(&mut self, n: usize, edges: I)
    where
        I: IntoIterator<Item = (usize, usize, W)>,
        I::IntoIter: Clone,
    {
        let edges = edges.into_iter();
        self.n = n;
        let mut maxw = W::zero();
        let mut nedge = 0;
        fit(&mut self.start, n + 1, 0);
        for (i, j, w) in edges.clone() {
            let w = w + w;
            if w > maxw {
                maxw = w;
            }
            self.start[i + 1] += 1;
            self.start[j + 1] += 1;
            nedge += 1;
        }
        assert!(2 * nedge <= u32::MAX as usize && n <= u32::MAX as usize);
        // Each vertex's edges in the order of the edges (as a list per
        // vertex, pushed edge by edge, would hold them).
        for v in 0..n {
            self.start[v + 1] += self.start[v];
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.start[..n]);
        fit(&mut self.endpoint, 2 * nedge, 0);
        fit(&mut self.at, nedge, 0);
        fit(&mut self.adj, 2 * nedge, (0, 0));
        fit(&mut self.adj_weight, 2 * nedge, W::zero());
        fit(&mut self.adj_head, 2 * nedge, W::zero().head());
        for (k, (i, j, w)) in edges.enumerate() {
            let w = w + w;
            self.endpoint[2 * k] = i;
            self.endpoint[2 * k + 1] = j;
            for (x, y, p) in [(i, j, 2 * k + 1), (j, i, 2 * k)] {
                let at = self.scratch[x];
                self.scratch[x] += 1;
                self.adj[at] = (y as u32, p as u32);
                self.adj_weight[at] = w;
                self.adj_head[at] = w.head();
            }
            self.at[k] = (self.scratch[i] - 1) as u32;
        }
        fit(&mut self.scratch, 2 * n, NONE);
        fit(&mut self.mate, n, NONE);
        fit(&mut self.labelend, 2 * n, NONE);
        fit(&mut self.parent, 2 * n, NONE);
        fit(&mut self.bestedge, 2 * n, NONE);
        fit(&mut self.label, 2 * n, 0);
        self.inblossom.clear();
        self.inblossom.extend(0..n);
        self.base.clear();
        self.base.extend((0..n).chain(std::iter::repeat_n(NONE, n)));
        // (The blossoms' lists keep their room.)
        self.childs.iter_mut().for_each(Vec::clear);
        self.childs.resize_with(2 * n, Vec::new);
        self.endps.iter_mut().for_each(Vec::clear);
        self.endps.resize_with(2 * n, Vec::new);
        fit(&mut self.key, 2 * n, W::zero());
        fit(&mut self.keyed, 2 * n, false);
        self.elapsed = W::zero();
        self.twice = W::zero();
        fit(&mut self.bestedges, 2 * n, None);
        self.unused.clear();
        self.unused.extend((n..2 * n).rev());
        fit(&mut self.dual, n, maxw);
        self.dual.resize(2 * n, W::zero());
        fit(&mut self.dual_head, n, maxw.head());
        fit(&mut self.allowed, nedge, false);
        self.queue.clear();
        self.lists = false;
        self.served = 0;
        self.no_lists = false;
    }

    /// Whether `x` is a root of this stage that is a vertex alone.
    fn lone_root(&self, x: usize) -> bool {
        self.label[x] == 1 && self.inblossom[x] == x && self.labelend[x] == NONE
    }

    /// Sets every vertex's best edge at the start of a stage (the roots
    /// just labelled S, every other vertex unlabelled) from the sorted
    /// lists, made again if needed, instead of the first scan of every
    /// root: a root's least-slack edge to another root, an unlabelled
    /// vertex's least-slack edge from a root, as the scan would find them
    /// (up to ties). Tight edges among them are taken by the dual steps of
    /// zero that follow, one by one, instead of during the scan. True if
    /// done (the queue is then emptied), false (nothing changed) else.
    fn best_from_lists(&mut self, roots: usize) -> bool {
        let n = self.n;
        if self.no_lists || roots < self.list_min_roots {
            return false;
        }
        let mut valid = self.lists;
        let mut fall: Option<W> = None;
        for v in 0..n {
            if self.label[self.inblossom[v]] != 1 {
                continue;
            }
            if !self.lone_root(v) {
                return false;
            }
            if valid {
                let d = self.list_dual[v] - self.dual[v];
                valid = self.list_root[v] && fall.is_none_or(|f| f == d);
                fall = Some(d);
            }
        }
        if !valid {
            if self.lists && self.served < 4 {
                // Made again too soon: scan as usual from now on.
                self.no_lists = true;
                return false;
            }
            self.make_lists();
        }
        self.served += 1;
        for v in 0..n {
            let base = self.start[v];
            let mut i = self.ptr[v] as usize;
            let cnt = self.cnt[v] as usize;
            while i < cnt && !self.lone_root(self.adj[self.order[base + i] as usize].0 as usize) {
                i += 1;
            }
            self.ptr[v] = i as u32;
            let best = if i < cnt {
                self.adj[self.order[base + i] as usize].1 as usize / 2
            } else {
                NONE
            };
            self.set_best(v, best);
        }
        // The roots with a tight edge to another root are scanned (the
        // first scan would have met that edge, and augmented at once).
        self.queue.clear();
        for v in 0..n {
            let e = self.bestedge[v];
            if self.lone_root(v) && e != NONE && self.slack(e) == W::zero() {
                self.queue.push(v);
            }
        }
        true
    }

    /// Makes the sorted lists for this stage's roots.
    fn make_lists(&mut self) {
        let n = self.n;
        fit(&mut self.order, self.adj.len(), 0);
        fit(&mut self.cnt, n, 0);
        fit(&mut self.ptr, n, 0);
        let mut keyed: Vec<(W, u32)> = Vec::new();
        for v in 0..n {
            keyed.clear();
            for at in self.start[v]..self.start[v + 1] {
                let (x, p) = self.adj[at];
                if self.lone_root(x as usize) {
                    keyed.push((self.slack(p as usize / 2), at as u32));
                }
            }
            // Least slack first; ties in the order of the edges.
            keyed.sort_by(|a, b| {
                a.0.head()
                    .cmp(&b.0.head())
                    .then(a.0.cmp(&b.0))
                    .then(a.1.cmp(&b.1))
            });
            let base = self.start[v];
            for (i, &(_, at)) in keyed.iter().enumerate() {
                self.order[base + i] = at;
            }
            self.cnt[v] = keyed.len() as u32;
        }
        fit(&mut self.list_root, n, false);
        for v in 0..n {
            self.list_root[v] = self.lone_root(v);
        }
        self.list_dual.clear();
        self.list_dual.extend_from_slice(&self.dual[..n]);
        self.lists = true;
        self.served = 0;
    }

    /// Vertex `v`'s edges: (neighbour, endpoint at it).
    fn edges_of(&self, v: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.adj[self.start[v]..self.start[v + 1]]
            .iter()
            .map(|&(w, p)| (w as usize, p as usize))
    }

    /// The two ends of edge `k`.
    fn ends(&self, k: usize) -> (usize, usize) {
        (self.endpoint[2 * k], self.endpoint[2 * k + 1])
    }

    /// Starts from `old`'s solution: each kept vertex's dual plus those of
    /// the blossoms around it (so every edge inside keeps its slack), a new
    /// vertex's the most any edge of it weighs; then, for each edge whose
    /// weight rose past its duals, the end with more such edges raised
    /// (duals only rise: every edge stays feasible); then the old pairs that
    /// are still edges and tight; the free vertices' duals made even, so
    /// that every S-vertex's dual has one parity and `half` stays exact.
    /// The matching and each vertex's dual with its blossoms' shares.
    fn solution(&self) -> Solution<W> {
        let n = self.n;
        let mates = (0..n)
            .map(|v| {
                let p = self.mate[v];
                (p != NONE).then(|| self.endpoint[p])
            })
            .collect();
        let duals = (0..n)
            .map(|v| {
                let mut d = self.dual[v];
                let mut x = v;
                while self.parent[x] != NONE {
                    x = self.parent[x];
                    d = d + self.dual[x];
                }
                d
            })
            .collect();
        Solution { mates, duals }
    }

    fn warm_from(&mut self, old: &Solution<W>, carry: &[Option<usize>]) {
        let n = self.n;
        let mut now = vec![NONE; old.mates.len()];
        for (v, c) in carry.iter().enumerate() {
            if let Some(o) = *c {
                now[o] = v;
            }
        }
        for (v, c) in carry.iter().enumerate().take(n) {
            self.dual[v] = match *c {
                Some(o) => old.duals[o],
                None => self
                    .edges_of(v)
                    .map(|(_, p)| self.weight(p / 2))
                    .max()
                    .unwrap_or(W::zero()),
            };
        }
        let mut short = vec![0u32; n];
        for k in 0..self.at.len() {
            if self.slack(k) < W::zero() {
                let (i, j) = self.ends(k);
                short[i] += 1;
                short[j] += 1;
            }
        }
        for k in 0..self.at.len() {
            let s = self.slack(k);
            if s < W::zero() {
                let (i, j) = self.ends(k);
                let x = if short[j] > short[i] { j } else { i };
                self.dual[x] = self.dual[x] - s;
            }
        }
        for (v, c) in carry.iter().enumerate().take(n) {
            let Some(o) = *c else { continue };
            let Some(om) = old.mates[o] else { continue };
            let u = now[om];
            if u == NONE || u < v {
                continue;
            }
            let found = self.edges_of(v).find(|&(w, _)| w == u);
            if let Some((_, p)) = found {
                if self.slack(p / 2) == W::zero() {
                    self.mate[v] = p;
                    self.mate[u] = p ^ 1;
                }
            }
        }
        for v in 0..n {
            if self.mate[v] == NONE {
                self.dual[v] = self.dual[v].round_even();
            }
            self.dual_head[v] = self.dual[v].head();
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.ends(k);
        self.dual[i] + self.dual[j] - self.weight(k)
    }

    /// Edge `k`'s weight, doubled.
    fn weight(&self, k: usize) -> W {
        self.adj_weight[self.at[k] as usize]
    }

    /// The head of edge `k`'s slack.
    fn slack_head(&self, k: usize) -> W::Head {
        let (i, j) = self.ends(k);
        self.dual_head[i] + self.dual_head[j] - self.adj_head[self.at[k] as usize]
    }

    /// Whether edge `a`'s slack is below edge `b`'s (heads first).
    fn slack_lt(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.slack_head(a), self.slack_head(b));
        if x != y {
            x < y
        } else {
            self.slack(a) < self.slack(b)
        }
    }

    /// The whole slack of an edge the scan meets.
    #[inline]
    fn whole_slack(&self, e: &Scanned<W>) -> W {
        self.dual[e.v] + self.dual[e.w] - self.adj_weight[e.at]
    }

    /// Whether the slack of `e` is below a bound whose head is
    /// `bound_head` and which `bound` gives whole: by the heads, and by the
    /// whole weights only when the heads tie.
    #[inline]
    fn below(&self, e: &Scanned<W>, bound_head: W::Head, bound: impl FnOnce(&Self) -> W) -> bool {
        if e.head != bound_head {
            e.head < bound_head
        } else {
            e.whole.unwrap_or_else(|| self.whole_slack(e)) < bound(self)
        }
    }

    fn set_best(&mut self, x: usize, k: usize) {
        self.bestedge[x] = k;
        self.keyed[x] = false;
    }

    /// The slack of `bestedge[x]` plus `offset` (the stage's elapsed deltas,
    /// once or twice by `x`'s role), computed when first asked for.
    fn key_of(&mut self, x: usize, offset: W) -> W {
        if !self.keyed[x] {
            self.key[x] = self.slack(self.bestedge[x]) + offset;
            self.keyed[x] = true;
        }
        debug_assert!(self.key[x] - offset == self.slack(self.bestedge[x]));
        self.key[x]
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.set_best(w, NONE);
        self.set_best(b, NONE);
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.base[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.ends(k);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("a free blossom slot");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = W::zero();
        self.childs[b] = path.clone();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // Per S-blossom next to the new one, its least-slack edge to it
        // (`scratch`, all NONE between calls).
        let mut bestedgeto = std::mem::take(&mut self.scratch);
        let consider = |m: &Self, k: usize, bestedgeto: &mut Vec<usize>| {
            let (mut i, mut j) = m.ends(k);
            if m.inblossom[j] == b {
                std::mem::swap(&mut i, &mut j);
            }
            let _ = i;
            let bj = m.inblossom[j];
            if bj != b
                && m.label[bj] == 1
                && (bestedgeto[bj] == NONE || m.slack_lt(k, bestedgeto[bj]))
            {
                bestedgeto[bj] = k;
            }
        };
        for &bv in &path {
            match self.bestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        consider(self, k, &mut bestedgeto);
                    }
                }
                None => {
                    for v in self.leaves_of(bv) {
                        for (_, p) in self.edges_of(v) {
                            consider(self, p / 2, &mut bestedgeto);
                        }
                    }
                }
            }
            self.set_best(bv, NONE);
        }
        let mut best = Vec::new();
        for x in bestedgeto.iter_mut() {
            if *x != NONE {
                best.push(*x);
                *x = NONE;
            }
        }
        self.scratch = bestedgeto;
        self.set_best(b, NONE);
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack_lt(k, self.bestedge[b]) {
                self.set_best(b, k);
            }
        }
        self.bestedges[b] = Some(best);
        self.childs[b] = path;
        self.endps[b] = endps;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.childs[b].clone();
        // The children and their vertices change label: their keys are stale.
        for &s in &childs {
            self.keyed[s] = false;
        }
        for v in self.leaves_of(b) {
            self.keyed[v] = false;
        }
        for &s in &childs {
            self.parent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| childs[j.rem_euclid(len) as usize];
            let endps = self.endps[b].clone();
            let ep = |j: isize| endps[j.rem_euclid(len) as usize];
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, trick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = 0;
                let r = self.endpoint[ep(j - trick as isize) ^ trick ^ 1];
                self.label[r] = 0;
                self.assign_label(q, 2, p);
                self.allowed[ep(j - trick as isize) / 2] = true;
                j += jstep;
                p = ep(j - trick as isize) ^ trick;
                self.allowed[p / 2] = true;
                j += jstep;
            }
            let bv = at(j);
            let q = self.endpoint[p ^ 1];
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.set_best(bv, NONE);
            j += jstep;
            while at(j) != entrychild {
                let bv = at(j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let mb = self.mate[self.base[bv]];
                    let e = self.endpoint[mb];
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.childs[b] = Vec::new();
        self.endps[b] = Vec::new();
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.set_best(b, NONE);
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b].iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let (jstep, trick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t1 = self.childs[b][j.rem_euclid(len) as usize];
            let p = self.endps[b][(j - trick as isize).rem_euclid(len) as usize] ^ trick;
            if t1 >= self.n {
                self.augment_blossom(t1, self.endpoint[p]);
            }
            j += jstep;
            let t2 = self.childs[b][j.rem_euclid(len) as usize];
            if t2 >= self.n {
                self.augment_blossom(t2, self.endpoint[p ^ 1]);
            }
            let (a, c) = (self.endpoint[p], self.endpoint[p ^ 1]);
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.ends(k);
        // Each side ends at a root, or at a free vertex of dual zero (unlabelled).
        self.flip_path(v, 2 * k + 1, true);
        self.flip_path(w, 2 * k, true);
    }

    /// Flips the alternating path from S-vertex `v` to the root of its tree:
    /// the root is matched, `v` is left free (as one side of
    /// [`Matcher::augment_matching`]).
    fn flip_to_root(&mut self, v: usize) {
        self.flip_path(v, NONE, false);
    }

    /// Matches `s` to endpoint `p` and flips the alternating path from `s`
    /// towards the root of its tree; with `free_ends`, a vertex whose blossom
    /// is not labelled S also ends the path.
    fn flip_path(&mut self, mut s: usize, mut p: usize, free_ends: bool) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE || (free_ends && self.label[bs] != 1) {
                break;
            }
            let t = self.endpoint[self.labelend[bs]];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt]];
            let j = self.endpoint[self.labelend[bt] ^ 1];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// Edmonds' algorithm, stage by stage. Each stage grows alternating
    /// trees from the free vertices whose dual is above zero (all of them,
    /// with equal duals, from a cold start; a warm start may leave some at
    /// zero, which then only end augmenting paths, and others higher) and
    /// ends when a path is augmented, or a root's dual reaches zero (it may
    /// stay free), or another S-vertex's does (the path from its root to it
    /// is flipped, so that it is the free one). With every free vertex's
    /// dual at zero the matching is of maximum weight.
    fn solve(&mut self) {
        let n = self.n;
        let hz = W::zero().head();
        for _ in 0..=n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            self.keyed.iter_mut().for_each(|k| *k = false);
            self.elapsed = W::zero();
            self.twice = W::zero();
            for b in n..2 * n {
                self.bestedges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            let mut roots = 0;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.label[self.inblossom[v]] == 0
                    && self.dual[v] > W::zero()
                {
                    self.assign_label(v, 1, NONE);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            self.best_from_lists(roots);
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    // The slack of each edge by its head; the whole slack
                    // only when heads tie (`Scanned::whole`, computed once).
                    let dv = self.dual_head[v];
                    for at in self.start[v]..self.start[v + 1] {
                        let (w, p) = self.adj[at];
                        let (w, p) = (w as usize, p as usize);
                        let k = p / 2;
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut e = Scanned {
                            at,
                            v,
                            w,
                            head: hz,
                            whole: None,
                        };
                        if !self.allowed[k] {
                            e.head = dv + self.dual_head[w] - self.adj_head[at];
                            let tight = if e.head != hz {
                                e.head < hz
                            } else {
                                let s = self.whole_slack(&e);
                                e.whole = Some(s);
                                s <= W::zero()
                            };
                            if tight {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            if self.label[self.inblossom[w]] == 0
                                && self.mate[self.base[self.inblossom[w]]] == NONE
                            {
                                // A free vertex of dual zero (after a warm
                                // start): the end of an augmenting path.
                                self.augment_matching(k);
                                augmented = true;
                                break;
                            } else if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            let better = self.bestedge[b] == NONE || {
                                let twice = self.twice;
                                let key = self.key_of(b, twice);
                                self.below(&e, key.head() - twice.head(), |_| key - twice)
                            };
                            if better {
                                self.set_best(b, k);
                            }
                        } else if self.label[w] == 0 {
                            let better = self.bestedge[w] == NONE
                                || if self.label[self.inblossom[w]] == 0 {
                                    let elapsed = self.elapsed;
                                    let key = self.key_of(w, elapsed);
                                    self.below(&e, key.head() - elapsed.head(), |_| key - elapsed)
                                } else {
                                    // In a T-blossom: no key.
                                    let best = self.bestedge[w];
                                    self.below(&e, self.slack_head(best), |m| m.slack(best))
                                };
                            if better {
                                self.set_best(w, k);
                            }
                        }
                    }
                }
                if augmented {
                    break;
                }
                let mut deltatype = 1;
                // The lowest dual of an S-vertex (from a cold start, the free
                // vertices' common dual).
                let mut delta = (0..n)
                    .filter(|&v| self.label[self.inblossom[v]] == 1)
                    .map(|v| self.dual[v])
                    .min()
                    .expect("an S-vertex");
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                // slack < delta, as key < delta + elapsed.
                let mut bound = delta + self.elapsed;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let key = self.key_of(v, self.elapsed);
                        if key < bound {
                            bound = key;
                            delta = key - self.elapsed;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                let twice = self.elapsed + self.elapsed;
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                        let d = (self.key_of(b, twice) - twice).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dual[v] = self.dual[v] - delta,
                        2 => self.dual[v] = self.dual[v] + delta,
                        _ => continue,
                    }
                    self.dual_head[v] = self.dual[v].head();
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b] + delta,
                            2 => self.dual[b] = self.dual[b] - delta,
                            _ => {}
                        }
                    }
                }
                self.elapsed = self.elapsed + delta;
                self.twice = self.elapsed + self.elapsed;
                match deltatype {
                    1 => {
                        // A root at zero stays free; else an S-vertex at
                        // zero takes its root's place as the free one.
                        let at_zero = |m: &Self, v: usize| {
                            m.label[m.inblossom[v]] == 1 && m.dual[v] == W::zero()
                        };
                        if !(0..n).any(|v| self.mate[v] == NONE && at_zero(self, v)) {
                            let v = (0..n)
                                .find(|&v| at_zero(self, v))
                                .expect("an S-vertex at zero");
                            self.flip_to_root(v);
                        }
                        augmented = true;
                        break;
                    }
                    2 | 3 => {
                        self.allowed[deltaedge] = true;
                        let (mut i, mut j) = self.ends(deltaedge);
                        if deltatype == 2 && self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(n: usize, edges: &[(usize, usize, i64)]) -> i64 {
        fn go(v: usize, n: usize, used: &mut Vec<bool>, adj: &[Vec<Option<i64>>]) -> i64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, used, adj);
            }
            used[v] = true;
            let mut best = go(v + 1, n, used, adj);
            for u in v + 1..n {
                if !used[u] {
                    if let Some(w) = adj[v][u] {
                        used[u] = true;
                        best = best.max(w + go(v + 1, n, used, adj));
                        used[u] = false;
                    }
                }
            }
            used[v] = false;
            best
        }
        let mut adj = vec![vec![None; n]; n];
        for &(a, b, w) in edges {
            adj[a][b] = Some(w);
            adj[b][a] = Some(w);
        }
        go(0, n, &mut vec![false; n], &adj)
    }

    fn dedup<W: Copy>(n: usize, raw: &[(usize, usize, W)]) -> Vec<(usize, usize, W)> {
        let mut edges: Vec<(usize, usize, W)> = Vec::new();
        if n == 0 {
            return edges;
        }
        for &(a, b, w) in raw {
            let (a, b) = (a % n, b % n);
            if a != b
                && !edges
                    .iter()
                    .any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a))
            {
                edges.push((a, b, w));
            }
        }
        edges
    }

    type Edge = (usize, usize, i64);

    /// The graph after `edges` for a warm start: the vertices `keep` says,
    /// renumbered, and the edges among them, each dropped, raised, set to a
    /// new weight or kept as `change` says; with the carry from the old
    /// numbers.
    fn warm_graph(
        n: usize,
        edges: &[Edge],
        keep: &[bool],
        change: &[(u8, i64)],
    ) -> (usize, Vec<Edge>, Vec<Option<usize>>) {
        let kept: Vec<usize> = (0..n).filter(|&v| keep[v]).collect();
        let at = |v: usize| kept.iter().position(|&k| k == v);
        let mut next = Vec::new();
        for (e, &(a, b, w)) in edges.iter().enumerate() {
            let (Some(x), Some(y)) = (at(a), at(b)) else {
                continue;
            };
            match change[e % change.len()] {
                (0, _) => {}
                (1, d) => next.push((x, y, w + d)),
                (2, d) => next.push((x, y, d)),
                _ => next.push((x, y, w)),
            }
        }
        let carry = kept.iter().map(|&v| Some(v)).collect();
        (kept.len(), next, carry)
    }

    /// The weight of a matching, checked to be one of these edges.
    fn weight_of(
        mates: &[Option<usize>],
        edges: &[(usize, usize, i64)],
    ) -> Result<i64, TestCaseError> {
        let mut total = 0;
        for (v, m) in mates.iter().enumerate() {
            if let Some(u) = *m {
                prop_assert_eq!(mates[u], Some(v));
                if v < u {
                    let e = edges
                        .iter()
                        .find(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v));
                    prop_assert!(e.is_some());
                    total += e.unwrap().2;
                }
            }
        }
        Ok(total)
    }

    /// A maximum-weight matching with the sorted lists used at every stage
    /// (`list_min_roots` 1).
    fn with_lists<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
        let mut r = Rematcher::default();
        r.m.list_min_roots = 1;
        r.solve(n, edges.iter().copied(), &vec![None; n])
    }

    proptest! {
        /// With the sorted lists at every stage, the matching is of maximum
        /// weight (brute force), cold and warm.
        #[test]
        fn lists_match_brute_force(
            n in 2usize..11,
            raw in proptest::collection::vec((0usize..11, 0usize..11, 1i64..30), 0..40),
            keep in proptest::collection::vec(proptest::bool::weighted(0.8), 11),
            change in proptest::collection::vec((0u8..4, 1i64..30), 40),
        ) {
            let edges = dedup(n, &raw);
            let mates = with_lists(n, &edges);
            prop_assert_eq!(weight_of(&mates, &edges)?, brute(n, &edges));
            let mut r = Rematcher::default();
            r.m.list_min_roots = 1;
            let first = r.solve(n, edges.clone(), &vec![None; n]);
            prop_assert_eq!(weight_of(&first, &edges)?, brute(n, &edges));
            let (m, next, carry) = warm_graph(n, &edges, &keep, &change);
            let second = r.solve(m, next.clone(), &carry);
            prop_assert_eq!(weight_of(&second, &next)?, brute(m, &next));
        }

        /// The same over two-word weights with many ties on larger graphs:
        /// as heavy as the matching without lists.
        #[test]
        fn lists_match_without(
            n in 20usize..70,
            raw in proptest::collection::vec((0usize..70, 0usize..70, 0i128..3, 0i128..6), 50..600),
        ) {
            let raw: Vec<_> = raw.into_iter().map(|(a, b, x, y)| (a, b, Lex([x, 2 * y + 1]))).collect();
            let edges = dedup(n, &raw);
            let total = |mates: &[Option<usize>]| {
                let mut t = Lex([0, 0]);
                for &(a, b, w) in &edges {
                    if mates[a] == Some(b) {
                        prop_assert_eq!(mates[b], Some(a));
                        t = t + w;
                    }
                }
                Ok(t)
            };
            let plain = {
                let mut r = Rematcher::default();
                r.m.list_min_roots = usize::MAX;
                r.solve(n, edges.clone(), &vec![None; n])
            };
            prop_assert_eq!(total(&with_lists(n, &edges))?, total(&plain)?);
        }

        /// An edge whose endpoints' duals exceed twice its weight is in no
        /// maximum-weight matching: forcing it loses weight.
        #[test]
        fn slack_edges_are_in_no_best_matching(n in 2usize..10, raw in proptest::collection::vec((0usize..10, 0usize..10, 1i64..12), 0..30)) {
            let mut edges: Vec<(usize, usize, i64)> = Vec::new();
            for (a, b, w) in raw {
                let (a, b) = (a % n, b % n);
                if a != b && !edges.iter().any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                    edges.push((a, b, w));
                }
            }
            let (mates, dual) = max_weight_matching_duals(n, &edges);
            prop_assert_eq!(&mates, &max_weight_matching(n, &edges));
            let best = brute(n, &edges);
            for &(u, v, w) in &edges {
                if dual[u] + dual[v] > 2 * w {
                    let rest: Vec<(usize, usize, i64)> = edges
                        .iter()
                        .copied()
                        .filter(|e| e.0 != u && e.0 != v && e.1 != u && e.1 != v)
                        .collect();
                    prop_assert!(w + brute(n, &rest) < best, "edge {u}-{v} has slack yet is in a best matching");
                }
            }
        }

        /// A warm start (vertices gone, weights changed up or down, edges
        /// added or removed) finds a maximum-weight matching, as brute force
        /// says, after a first cold one.
        #[test]
        fn warm_start_matches_brute_force(
            n in 2usize..11,
            raw in proptest::collection::vec((0usize..11, 0usize..11, 1i64..30), 0..40),
            keep in proptest::collection::vec(proptest::bool::weighted(0.8), 11),
            change in proptest::collection::vec((0u8..4, 1i64..30), 40),
            more in proptest::collection::vec((0usize..11, 0usize..11, 1i64..30), 0..6),
        ) {
            let edges = dedup(n, &raw);
            let mut r = Rematcher::default();
            let first = r.solve(n, edges.clone(), &vec![None; n]);
            prop_assert_eq!(weight_of(&first, &edges)?, brute(n, &edges));
            // The kept vertices, renumbered; the edges among them, changed.
            let (m, mut next, carry) = warm_graph(n, &edges, &keep, &change);
            if m > 0 {
                for (a, b, w) in more {
                    next.push((a % m, b % m, w));
                }
            }
            let next = dedup(m, &next);
            let second = r.solve(m, next.clone(), &carry);
            prop_assert_eq!(weight_of(&second, &next)?, brute(m, &next));
        }

        /// The same over two-word weights with many ties (blossoms, equal
        /// duals), on graphs too large for brute force: the warm start's
        /// matching weighs as much as a cold one, stage after stage.
        #[test]
        fn warm_start_matches_cold(
            n in 10usize..40,
            raw in proptest::collection::vec((0usize..40, 0usize..40, 0i128..3, 0i128..5), 20..300),
            stages in proptest::collection::vec((proptest::collection::vec(proptest::bool::weighted(0.9), 40), 0usize..40, 1i128..9), 1..4),
        ) {
            let mut edges: Vec<(usize, usize, Lex<2>)> = Vec::new();
            for (a, b, x, y) in raw {
                let (a, b) = (a % n, b % n);
                if a != b && !edges.iter().any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                    edges.push((a, b, Lex([x, y + 1])));
                }
            }
            let total = |mates: &[Option<usize>], edges: &[(usize, usize, Lex<2>)]| {
                let mut t = Lex([0, 0]);
                for &(a, b, w) in edges {
                    if mates[a] == Some(b) {
                        prop_assert_eq!(mates[b], Some(a));
                        t = t + w;
                    }
                }
                Ok(t)
            };
            let mut r = Rematcher::default();
            let mut cur_n = n;
            let mates = r.solve(cur_n, edges.clone(), &vec![None; cur_n]);
            prop_assert_eq!(total(&mates, &edges)?, total(&max_weight_matching(cur_n, &edges), &edges)?);
            for (keep, top, bonus) in stages {
                // As a Dutch stage: some vertices go, one vertex's edges gain.
                let kept: Vec<usize> = (0..cur_n).filter(|&v| keep[v]).collect();
                let at = |v: usize| kept.iter().position(|&k| k == v);
                let top = top % cur_n;
                let next: Vec<(usize, usize, Lex<2>)> = edges
                    .iter()
                    .filter_map(|&(a, b, w)| {
                        let (x, y) = (at(a)?, at(b)?);
                        let w = if a == top || b == top { w + Lex([0, bonus * (1 + (a + b) as i128 % 3)]) } else { w };
                        Some((x, y, w))
                    })
                    .collect();
                cur_n = kept.len();
                edges = next;
                let carry: Vec<Option<usize>> = kept.iter().map(|&v| Some(v)).collect();
                let warm = r.solve(cur_n, edges.clone(), &carry);
                prop_assert_eq!(total(&warm, &edges)?, total(&max_weight_matching(cur_n, &edges), &edges)?);
            }
        }

        #[test]
        fn matches_brute_force(n in 1usize..11, raw in proptest::collection::vec((0usize..11, 0usize..11, 1i64..40), 0..40)) {
            let mut edges: Vec<(usize, usize, i64)> = Vec::new();
            for (a, b, w) in raw {
                let (a, b) = (a % n, b % n);
                if a != b && !edges.iter().any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                    edges.push((a, b, w));
                }
            }
            let mates = max_weight_matching(n, &edges);
            let mut total = 0;
            for (v, m) in mates.iter().enumerate() {
                if let Some(u) = *m {
                    prop_assert_eq!(mates[u], Some(v));
                    if v < u {
                        let e = edges.iter().find(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v));
                        prop_assert!(e.is_some());
                        total += e.unwrap().2;
                    }
                }
            }
            prop_assert_eq!(total, brute(n, &edges));
        }
    }
}
