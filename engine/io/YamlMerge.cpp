#include "io/YamlMerge.h"

#include "common/Error.h"
#include "io/YamlUtil.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nestor::yamlio {

namespace {

class MergeResolver {
public:
    explicit MergeResolver(std::string file) : file_(std::move(file)) {}

    void resolve(const YAML::Node& node)
    {
        if (!node.IsMap() && !node.IsSequence()) return;
        if (!firstVisit(node)) return;  // an alias of a node already resolved (and no cycle)
        if (node.IsSequence()) {
            for (const YAML::Node& item : node) resolve(item);
            return;
        }
        std::vector<std::pair<YAML::Node, YAML::Node>> entries;
        bool merges = false;
        for (auto it = node.begin(); it != node.end(); ++it) {
            entries.emplace_back(it->first, it->second);
            merges = merges || isMergeKey(it->first);
        }
        for (const auto& [key, value] : entries)
            if (!isMergeKey(key)) resolve(value);
        if (merges) rebuild(node, entries);
    }

private:
    static bool isMergeKey(const YAML::Node& key)
    {
        // A plain `<<` (a quoted "<<" is an ordinary key, as in YAML 1.1).
        return key.IsScalar() && key.Scalar() == "<<" && (key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:merge");
    }

    // The map's entries in order, each merge key replaced by the entries of its maps that no
    // key of the map itself (nor an earlier merged map) gives.
    void rebuild(const YAML::Node& node, const std::vector<std::pair<YAML::Node, YAML::Node>>& entries)
    {
        std::vector<std::string> taken;
        for (const auto& [key, value] : entries)
            if (key.IsScalar() && !isMergeKey(key)) taken.push_back(key.Scalar());
        std::vector<std::pair<YAML::Node, YAML::Node>> merged;
        auto add = [&](const YAML::Node& key, const YAML::Node& value) {
            if (isMergeKey(key)) return;  // (left only in a map that merges itself)
            if (key.IsScalar()) {
                if (std::find(taken.begin(), taken.end(), key.Scalar()) != taken.end()) return;
                taken.push_back(key.Scalar());
            }
            merged.emplace_back(key, value);
        };
        for (const auto& [key, value] : entries) {
            if (!isMergeKey(key)) {
                merged.emplace_back(key, value);
                continue;
            }
            std::vector<YAML::Node> sources;
            if (value.IsMap()) {
                sources.push_back(value);
            } else if (value.IsSequence()) {
                for (std::size_t i = 0; i < value.size(); ++i) {
                    if (!value[i].IsMap())
                        fail(key, "a merge key '<<' lists maps (e.g. `<<: [*a, *b]`); item " + std::to_string(i + 1) +
                                      " is not a map");
                    sources.push_back(value[i]);
                }
            } else {
                fail(key, "a merge key '<<' takes a map or a list of maps (e.g. `<<: *anchor`)");
            }
            for (const YAML::Node& source : sources) {
                resolve(source);
                for (auto it = source.begin(); it != source.end(); ++it) add(it->first, it->second);
            }
        }
        YAML::Node map = node;  // (a handle: the edits below change the document's node itself)
        for (const auto& [key, value] : entries) map.remove(key);
        for (const auto& [key, value] : merged) map.force_insert(key, value);
    }

    // Nodes are told apart by identity (YAML::Node::is), looked up by their position in the text.
    bool firstVisit(const YAML::Node& node)
    {
        std::vector<YAML::Node>& atPos = visited_[node.Mark().pos];
        for (const YAML::Node& seen : atPos)
            if (seen.is(node)) return false;
        atPos.push_back(node);
        return true;
    }

    [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const
    {
        throw NestorError("", message, locationOf(at.Mark(), file_));
    }

    std::string file_;
    std::unordered_map<int, std::vector<YAML::Node>> visited_;
};

} // namespace

void resolveMergeKeys(YAML::Node& root, const std::string& file)
{
    MergeResolver(file).resolve(root);
}

} // namespace nestor::yamlio
