// An arena bot in C++: a gRPC server of arena.bot.v1.Bot (proto/arena/bot/v1/bot.proto).
// Edit choose; `sh build.sh` builds ./bot, `arena validate .` builds and checks it.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "arena/bot/v1/bot.grpc.pb.h"

namespace v1 = arena::bot::v1;
using Clock = std::chrono::steady_clock;
using grpc::ServerContext;
using grpc::Status;

// What this seat knows of one game: its StartGame and every event received so far.
struct Game {
  v1::StartGameRequest start;         // game, seat, players, options, time control
  std::vector<v1::GameEvent> history;  // the public history as this seat saw it, oldest first
};

// The index of the action to play in request.legal_actions(), before deadline.
// request.decision_kind() names the decision, request.view() holds this seat's view
// (view().oregon(), ogallala() or merkator()); docs/rules/ in the arena's repository explains
// every kind. This one picks at random.
int choose(const Game& game, const v1::DecisionRequest& request, std::mt19937_64& rng,
           Clock::time_point deadline) {
  return std::uniform_int_distribution<int>(0, request.legal_actions_size() - 1)(rng);
}

static std::string env(const char* name, const char* fallback = "") {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

// The quoted strings of bot.toml's `key = ...` (an array up to its closing bracket, over
// several lines too): the handshake answers with its name, version and games.
static std::vector<std::string> manifest(const std::string& key) {
  std::ifstream file("bot.toml");
  std::stringstream text;
  text << file.rdbuf();
  std::string toml = text.str();
  std::smatch line;
  if (!std::regex_search(toml, line,
                         std::regex("(^|\n)" + key + "\\s*=\\s*(\\[[^\\]]*\\]|[^\n]*)")))
    throw std::runtime_error("bot.toml has no " + key);
  std::vector<std::string> values;
  std::string rest = line[2];
  std::regex quoted("\"([^\"]*)\"");
  for (std::sregex_iterator it(rest.begin(), rest.end(), quoted), end; it != end; ++it)
    values.push_back((*it)[1]);
  return values;
}

class Bot final : public v1::Bot::Service {
 public:
  Status Handshake(ServerContext* ctx, const v1::HandshakeRequest*,
                   v1::HandshakeReply* reply) override {
    if (refused(ctx)) return kRefused;
    reply->set_name(manifest("name").at(0));
    reply->set_version(manifest("version").at(0));
    reply->set_protocol_version(v1::PROTOCOL_VERSION_1);
    for (const auto& game : manifest("games")) reply->add_games(game);
    return Status::OK;
  }

  // A process may play several games (and seats) at once and one after another: everything of
  // a game is kept by its game_id.
  Status StartGame(ServerContext* ctx, const v1::StartGameRequest* request,
                   v1::StartGameReply*) override {
    if (refused(ctx)) return kRefused;
    std::lock_guard<std::mutex> lock(mutex_);  // handlers run on several threads
    games_[request->game_id()] = Game{*request, {}};
    return Status::OK;
  }

  Status Decide(ServerContext* ctx, const v1::DecisionRequest* request,
                v1::DecisionReply* reply) override {
    if (refused(ctx)) return kRefused;
    // The reply must arrive within the move limit plus what is left of the bank: keep a margin.
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(
                                           request->clock().move_seconds() * 0.8));
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = games_.find(request->game_id());
    if (found == games_.end()) return Status(grpc::StatusCode::FAILED_PRECONDITION, "no StartGame");
    Game& game = found->second;
    game.history.insert(game.history.end(), request->events().begin(), request->events().end());
    try {
      reply->set_decision_number(request->decision_number());
      reply->set_action_index(choose(game, *request, rng_, deadline));
      return Status::OK;
    } catch (const std::exception& error) {  // else gRPC swallows it: the log says why
      std::cerr << "error: " << error.what() << std::endl;
      return Status(grpc::StatusCode::INTERNAL, error.what());
    }
  }

  Status EndGame(ServerContext* ctx, const v1::EndGameRequest* request,
                 v1::EndGameReply*) override {
    if (refused(ctx)) return kRefused;
    std::lock_guard<std::mutex> lock(mutex_);
    games_.erase(request->game_id());  // request->results(): every seat's score and rank
    return Status::OK;
  }

 private:
  // Every call carries ARENA_BOT_TOKEN in the metadata key x-arena-token.
  bool refused(ServerContext* ctx) const {
    const auto& metadata = ctx->client_metadata();
    auto found = metadata.find("x-arena-token");
    std::string token =
        found == metadata.end() ? "" : std::string(found->second.data(), found->second.size());
    return token != token_;
  }

  const Status kRefused{grpc::StatusCode::UNAUTHENTICATED, "wrong arena token"};
  const std::string token_ = env("ARENA_BOT_TOKEN");
  std::mutex mutex_;
  std::map<std::string, Game> games_;
  std::mt19937_64 rng_{std::stoull(env("ARENA_BOT_SEED", "0"))};  // same seed, same game
};

#ifndef BOT_UNIT_TEST  // bot_test.cc includes this file for choose, with its own main
int main() {
  // Output reaches the bot's log line by line (debug lines, the last words before a crash): to
  // a pipe, stdout (and std::cout with it) is otherwise kept in a buffer until it fills.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // The arena ends a bot with SIGTERM: block it in every thread, wait for it in one, exit 0.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  Bot bot;
  grpc::ServerBuilder builder;
  builder.AddListeningPort(env("ARENA_BOT_ADDRESS"), grpc::InsecureServerCredentials());
  builder.RegisterService(&bot);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::cerr << "error: cannot listen on '" << env("ARENA_BOT_ADDRESS") << "'" << std::endl;
    return 1;
  }
  std::thread waiter([&] {
    int signal;
    sigwait(&stop, &signal);
    server->Shutdown();
  });
  server->Wait();
  waiter.join();
}
#endif
