// libFuzzer target: arbitrary bytes as an HTTP server's answers. The input after its first two
// bytes is split at "@@@" into raw responses (status line, headers, body), served in turn by a
// local server to the real HTTP file system: opening the file (a suffix range GET for its size
// and last bytes), then reading the range the first two bytes pick. Status lines, headers,
// Content-Range, bodies cut short or too long: the outcome must be the bytes or a
// sluice::Exception; anything else is a bug.
#include "common/exception.hpp"
#include "expected_errors.hpp"
#include "io/http_client.hpp"
#include "io/http_file_system.hpp"
#include "scripted_http_server.hpp"

#include <cstdlib>
#include <cstring>

using namespace sluice;

namespace {

struct Remote {
    ScriptedHttpServer server;
    HttpClient client;
    HttpFileSystem file_system{client};

    Remote() {
        HttpOptions options;
        options.retries = 0; // each retry would only take the next scripted answer
        options.timeout_seconds = 2;
        options.io_threads = 1;
        client.SetOptions(options);
    }
};

Remote& Shared() {
    static Remote* remote = new Remote(); // lives as long as the fuzzing process
    return *remote;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) {
        return 0;
    }
    Remote& remote = Shared();
    remote.server.SetScript(
        SplitInput(std::string(reinterpret_cast<const char*>(data) + 2, size - 2), "@@@"));
    std::string url = "http://127.0.0.1:" + std::to_string(remote.server.port()) + "/file.bin";
    try {
        std::unique_ptr<FileHandle> file = remote.file_system.Open(url, {});
        uint64_t file_size = file->Size();
        if (file_size == 0) {
            return 0;
        }
        uint64_t offset = data[0] % file_size;
        uint64_t length = std::min<uint64_t>(file_size - offset, 1 + data[1] * 16);
        std::vector<char> buffer(length);
        file->Read(buffer.data(), length, offset, {});
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        // a clear error is the expected outcome for most answers
    }
    return 0;
}
