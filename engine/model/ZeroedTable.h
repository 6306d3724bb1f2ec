#pragma once
// A fixed-size table of zeroed entries that costs only the pages a stage touches. The closed
// forms size their tables for the worst stage (a few MB per thread); value-initialising them
// (a vector's resize, make_unique) wrote every page, which made a thread's first evaluation
// take 2-6 ms. The table is mapped as anonymous pages, which the kernel zeroes on first touch
// (calloc does so only while glibc's adaptive threshold sends the size to mmap: once a
// thread's tables were freed, the next thread's calloc wrote them all). Meant for tables of
// many pages: a small one still takes a whole page.
#include <cstddef>
#include <new>
#include <type_traits>

#include <sys/mman.h>

namespace nestor::model {

// T: an implicit-lifetime type (an aggregate, or trivially constructible; trivially
// destructible either way) whose all-zero bytes are its empty value, so that zeroed storage
// holds valid entries.
template <class T>
class ZeroedTable {
    static_assert(std::is_trivially_destructible_v<T>);

public:
    ZeroedTable() = default;
    explicit ZeroedTable(std::size_t n) { allocate(n); }
    ZeroedTable(const ZeroedTable&) = delete;
    ZeroedTable& operator=(const ZeroedTable&) = delete;
    ~ZeroedTable() { release(); }

    // n > 0 entries, all zero (any earlier ones are dropped). `populate`: every page mapped now,
    // for a table whose entries are spread over all its pages (a hash table), which its use
    // would touch one by one: a first touch faults, which on a virtual machine costs about
    // twice as much per page as mapping them in one call.
    void allocate(std::size_t n, bool populate = false)
    {
        release();
        const int flags = MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0);
        void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, flags, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        data_ = static_cast<T*>(p);
        size_ = n;
    }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    T* operator->() { return data_; }
    const T* operator->() const { return data_; }

private:
    void release()
    {
        if (data_) munmap(data_, size_ * sizeof(T));
        data_ = nullptr;
        size_ = 0;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace nestor::model
