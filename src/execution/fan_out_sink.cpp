#include "execution/fan_out_sink.hpp"

namespace sluice {

namespace {

struct FanOutState : LocalState {
    std::vector<std::unique_ptr<LocalState>> locals; // one per target
    std::vector<DataChunk> views;                    // one per target
};

} // namespace

std::unique_ptr<LocalState> FanOutSink::InitLocal() {
    auto state = std::make_unique<FanOutState>();
    for (const auto& target : targets_) {
        state->locals.push_back(target.sink->InitLocal());
        state->views.emplace_back(target.types);
    }
    return state;
}

SinkResult FanOutSink::Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) {
    auto& state = static_cast<FanOutState&>(*local);
    for (size_t t = 0; t < targets_.size(); t++) {
        DataChunk& view = state.views[t];
        view.Reset();
        for (size_t c = 0; c < targets_[t].columns.size(); c++) {
            view.column(c).Reference(chunk.column(targets_[t].columns[c]));
        }
        view.SetSize(chunk.size());
        targets_[t].sink->Sink(view, state.locals[t].get(), batch_index);
    }
    return SinkResult::NeedMoreInput;
}

void FanOutSink::Combine(LocalState* local) {
    auto& state = static_cast<FanOutState&>(*local);
    for (size_t t = 0; t < targets_.size(); t++) {
        targets_[t].sink->Combine(state.locals[t].get());
    }
}

void FanOutSink::Finalize() {
    for (const auto& target : targets_) {
        target.sink->Finalize();
    }
}

std::string FanOutSink::ProfileDetails() const {
    std::string details;
    for (const auto& target : targets_) {
        details += target.sink->ProfileDetails();
    }
    return details;
}

} // namespace sluice
