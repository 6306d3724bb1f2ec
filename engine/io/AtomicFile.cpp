#include "io/AtomicFile.h"

#include "common/Error.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nestor {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err)
{
    throw NestorError("", what + ": " + std::strerror(err), SourceLocation{path, 0, 0});
}

void syncDirectory(const std::string& dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;  // best effort: the rename itself already happened
    ::fsync(fd);
    ::close(fd);
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& content)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // O_EXCL with mode 0666 lets the process umask apply (mkstemp would force 0600).
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter++) + "-" + std::to_string(rd())))
                  .string();
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) fail(path, "cannot create a temporary file next to it", errno);
    }
    if (fd < 0) fail(path, "cannot create a temporary file next to it", EEXIST);
    auto cleanup = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        fail(path, what, err);
    };

    // Keep the permissions of an existing file.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && ::fchmod(fd, st.st_mode & 07777) != 0) cleanup("cannot set permissions", errno);

    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            cleanup("cannot write", errno);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) cleanup("cannot flush to disk", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot close", err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, "cannot replace the file", err);
    }
    syncDirectory(dir.string());
}

} // namespace nestor
