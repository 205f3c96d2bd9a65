// A World's companions (WorldCompanion: navigation tiles): attached under the World's lock,
// which its workers hold when they copy the list between jobs; and what a companion reads.
#include "world_state.hpp"

namespace isoterra {

void World::attach(std::shared_ptr<WorldCompanion> companion) {
    std::lock_guard<std::mutex> lock(state_->mu_);
    state_->companions_.push_back(std::move(companion));
}

std::vector<std::shared_ptr<WorldCompanion>> World::companions() const {
    std::lock_guard<std::mutex> lock(state_->mu_);
    return state_->companions_;
}

TaskPool* World::pool() const { return state_->pool_.get(); }

std::shared_ptr<const Field> World::field() const { return state_->field_; }

std::shared_ptr<const ChunkDeltas> World::edits() const {
    std::lock_guard<std::mutex> lock(state_->mu_);
    return state_->deltas_;
}

glm::dvec3 World::focus() const {
    std::lock_guard<std::mutex> lock(state_->mu_);
    return state_->focus_;
}

}  // namespace isoterra
