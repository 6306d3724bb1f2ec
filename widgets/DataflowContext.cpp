#include "DataflowContext.h"

#include <QStringList>

#include <algorithm>

namespace nestor::widgets {

namespace {
QString rankName(const Workload& w, const RankExpression& r)
{
    QStringList terms;
    for (const ProjectionTerm& t : r) {
        const QString dim = t.dim >= 0 && t.dim < w.numDims() ? QString::fromStdString(w.dimNames[std::size_t(t.dim)]) : QStringLiteral("?");
        terms << (t.coef == 1 ? dim : QStringLiteral("%1%2").arg(t.coef).arg(dim));
    }
    return terms.join(QLatin1Char('+'));
}
} // namespace

DataflowContext makeDataflowContext(const Workload& w, const Architecture& a, const Mapping& m, int level)
{
    DataflowContext c;
    if (level < 0 || level >= a.numLevels()) return c;
    const StorageLevel& l = a.levels[std::size_t(level)];
    c.levelName = QString::fromStdString(l.name);
    if (level > 0) c.parentName = QString::fromStdString(a.levels[std::size_t(level - 1)].name);
    c.meshX = int(std::max<std::int64_t>(1, l.meshX));
    c.meshY = int(std::max<std::int64_t>(1, l.meshY()));
    c.fanX = int(std::max<std::int64_t>(1, a.fanoutX(level)));
    c.fanY = int(std::max<std::int64_t>(1, a.fanoutY(level)));
    for (int t = 0; t < w.numTensors(); ++t) {
        const Tensor& tensor = w.tensors[std::size_t(t)];
        DataflowTensorShape s;
        s.name = QString::fromStdString(tensor.name);
        for (const RankExpression& r : tensor.ranks) {
            s.rankNames.push_back(rankName(w, r));
            s.extents.push_back(rankExtent(r, w.bounds.data()));
        }
        s.keptAtLevel = m.keeps(level, t);
        // Spatial-only levels and bypassing levels pass data through; the source is the nearest keeper.
        for (int p = level - 1; p >= 0 && s.source.isEmpty(); --p)
            if (m.keeps(p, t) && !a.levels[std::size_t(p)].isSpatialOnly()) s.source = QString::fromStdString(a.levels[std::size_t(p)].name);
        c.tensors.push_back(std::move(s));
    }
    return c;
}

} // namespace nestor::widgets
