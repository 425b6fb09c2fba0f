// The ceiling mantra-udp's driver is measured against (bench/udp_datagram_rate.py):
// a plain loop on loopback, one thread sending batches of 32 datagrams of SIZE
// bytes with sendmmsg as fast as it can, one receiving them with recvmmsg
// (non-blocking, woken by poll), no protocol and no pacing, for SECONDS.
// Prints what was received, the wall time and each thread's CPU time.
//
//   udp_plain_loop SIZE SECONDS
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>

namespace {

constexpr int kBatch = 32;

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: udp_plain_loop SIZE SECONDS\n");
    return 2;
  }
  const size_t size = std::strtoul(argv[1], nullptr, 10);
  const double seconds = std::strtod(argv[2], nullptr);
  if (size < 1 || size > 65000 || seconds <= 0) {
    std::fprintf(stderr, "udp_plain_loop: SIZE must be 1..65000 and SECONDS above 0\n");
    return 2;
  }
  const int rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
  int buf = 4 << 20;
  setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
  setsockopt(tx, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(rx, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(rx, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    std::perror("udp_plain_loop: bind");
    return 1;
  }
  std::atomic<bool> stop{false};
  long long received = 0;
  double rx_cpu = 0, tx_cpu = 0;
  std::thread receiver([&] {
    std::vector<char> bufs(kBatch * 65536);
    mmsghdr msgs[kBatch] = {};
    iovec iovs[kBatch];
    while (!stop) {
      pollfd p{rx, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      for (int i = 0; i < kBatch; ++i) {
        iovs[i] = {bufs.data() + i * 65536, 65536};
        msgs[i].msg_hdr.msg_iov = &iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
      }
      const int n = recvmmsg(rx, msgs, kBatch, MSG_DONTWAIT, nullptr);
      if (n > 0) received += n;
    }
    rx_cpu = thread_cpu_s();
  });
  const auto start = std::chrono::steady_clock::now();
  std::vector<char> payload(size, 'x');
  mmsghdr msgs[kBatch] = {};
  iovec iovs[kBatch];
  for (int i = 0; i < kBatch; ++i) {
    iovs[i] = {payload.data(), size};
    msgs[i].msg_hdr.msg_iov = &iovs[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &a;
    msgs[i].msg_hdr.msg_namelen = sizeof a;
  }
  long long sent = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    const int n = sendmmsg(tx, msgs, kBatch, 0);
    if (n > 0) sent += n;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tx_cpu = thread_cpu_s();
  usleep(100000);  // what is still in flight
  stop = true;
  receiver.join();
  std::printf(
      "{\"size\": %zu, \"sent\": %lld, \"received\": %lld, \"wall_s\": %.6f, \"sender_cpu_s\": %.6f, "
      "\"receiver_cpu_s\": %.6f}\n",
      size, sent, received, wall, tx_cpu, rx_cpu);
  return 0;
}
