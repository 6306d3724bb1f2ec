#include "arch/MeshInference.h"

#include "common/CheckedMath.h"

#include <numeric>

namespace nestor {
namespace {

struct Mesh {
    std::int64_t x = 1, y = 1;
};

// An X x (inst / X) mesh between `outer` (a mesh above) and `child` (the level below; null for
// the compute level): each extent divides the child's and is a multiple of the outer one.
bool fits(std::int64_t inst, std::int64_t x, const Mesh& outer, const Mesh* child)
{
    if (x <= 0 || inst % x != 0) return false;
    const std::int64_t y = inst / x;
    if (x % outer.x != 0 || y % outer.y != 0) return false;
    return !child || (child->x % x == 0 && child->y % y == 0);
}

// The smallest X that fits: a multiple of outer.x and of inst / gcd(inst, child.y) (so that
// inst / X divides child.y). It fits whenever the given meshes and instance counts are
// consistent (per prime: outer's exponents <= this level's <= the child's); 0 on overflow.
std::int64_t smallestFit(std::int64_t inst, const Mesh& outer, const Mesh* child)
{
    const std::int64_t q = child ? inst / std::gcd(inst, child->y) : 1;
    std::int64_t x = 0;
    return checkedMul(outer.x / std::gcd(outer.x, q), q, &x) ? x : 0;
}

} // namespace

void inferMeshes(Architecture& a, const std::vector<std::int64_t>& givenMeshX, std::int64_t givenComputeMeshX)
{
    const int L = a.numLevels();  // position L is the compute level
    auto instances = [&](int p) { return p < L ? a.levels[p].instances : a.compute.instances; };
    auto given = [&](int p) -> std::int64_t {
        if (p == L) return givenComputeMeshX;
        return p < static_cast<int>(givenMeshX.size()) ? givenMeshX[p] : 0;
    };
    // The nearest given mesh above each position ([1, 1] above the outermost level): an
    // inferred mesh must stay a refinement of it.
    std::vector<Mesh> outer(static_cast<std::size_t>(L) + 1);
    Mesh above;
    for (int p = 0; p <= L; ++p) {
        outer[p] = above;
        const std::int64_t g = given(p), n = instances(p);
        if (g > 0 && n > 0 && n % g == 0) above = {g, n / g};
    }
    // Innermost first, so the level below is always settled.
    Mesh child;
    for (int p = L; p >= 0; --p) {
        const std::int64_t n = instances(p);
        std::int64_t x = given(p);
        if (x <= 0) {
            const Mesh* c = p < L ? &child : nullptr;
            const Mesh& o = outer[p];
            if (n <= 0) x = 1;                          // validate() reports the instances
            else if (fits(n, n, o, c)) x = n;           // Timeloop's rule: one row
            else if (fits(n, o.x, o, c)) x = o.x;       // its own fanout runs along Y
            else if (c && fits(n, c->x, o, c)) x = c->x;  // the fanout below it runs along Y
            else if (const std::int64_t s = smallestFit(n, o, c); fits(n, s, o, c)) x = s;
            else x = n;                                 // nothing fits: validate() says where
        }
        (p < L ? a.levels[p].meshX : a.compute.meshX) = x;
        child = {x, x > 0 && n % x == 0 ? n / x : 0};
    }
}

} // namespace nestor
