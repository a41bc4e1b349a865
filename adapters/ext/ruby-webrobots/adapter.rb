#!/usr/bin/env ruby
#! ruby-webrobots: webrobots 0.1.2 (Debian bookworm ruby-webrobots 0.1.2-1.1, Ruby 3.1;
#! the robots.txt library behind Mechanize).
#!
#! Profile claimed: google. webrobots names no specification; it implements Allow, `*`/`$`
#! wildcards and longest match (rules sorted by length, Allow first), Google's reading.
#!
#! The protocol loop (adapters/PROTOCOL.md) is inline: json and base64 are Ruby's standard
#! library. Answers go to a duplicate of the original stdout; STDOUT itself is reopened on
#! STDERR so nothing else can reach the protocol stream. Answers are ASCII-only JSON.
#!
#! Input conventions:
#! - Body: raw bytes as a binary (ASCII-8BIT) String, which is what its own fetcher hands
#!   the parser (Net::HTTP's response.body): non_utf8_bodies = true. It is served through
#!   the documented :http_get option, a proc that returns the body for any robots.txt URL,
#!   so each site in a request gets the same body, as a crawler would see it.
#! - URLs: allowed?(url) takes an absolute http(s) URI ("If a relative URI ... is given,
#!   ArgumentError is raised"): paths are joined onto https://example.com textually. A URI
#!   is ASCII by definition and URI.parse rejects raw non-ASCII ("URI must be ascii only"),
#!   hence raw_non_ascii_urls = false.
#! - :crawl_delay => :ignore, since the default (:sleep) sleeps inside allowed?().
#! - sitemaps: sitemaps(url) of https://example.com/. crawl-delay: crawl_delay(url) for the
#!   agent. It returns 0 both when the crawler's group has no crawl-delay and for
#!   `Crawl-delay: 0`, so a 0 is answered unsupported (never guess: neither "0" nor null
#!   is what the library said); any other delay is its value.
#! - A body the racc grammar rejects is not an exception: webrobots records the error and
#!   allows everything; the adapter reports the verdict it gives and logs the error to
#!   stderr.
#!
#! Known deviations (probe): only the first matching group (5b); agent matched as a
#! case-insensitive substring (a full User-Agent header matches); BOM kept; CR-only line
#! endings not split; `/robots.txt` always allowed. Hangs on patterns with many wildcards
#! (probe cases H1 and H2) and then ignores SIGTERM: the harness must SIGKILL it.
require 'json'
require 'base64'
require 'webrobots'
require 'webrobots/version'

OUT = STDOUT.dup
OUT.binmode
OUT.sync = true
STDOUT.reopen(STDERR)
$stdout = STDERR
STDIN.binmode

BASE = 'https://example.com'
SCHEME = %r{\A[A-Za-z][A-Za-z0-9+.\-]*://}

class BadRequest < StandardError; end

def text(s)
  s.to_s.dup.force_encoding(Encoding::UTF_8).scrub("\uFFFD")
end

def message(e)
  "#{e.class}: #{text(e.message)}"
end

def reply(obj)
  OUT.write(JSON.generate(obj, ascii_only: true) + "\n")
rescue Errno::EPIPE
  exit 0
end

def join_url(url)
  return url if url =~ SCHEME
  BASE + (url.start_with?('/') ? url : "/#{url}")
end

# A crawl-delay number as text the way Rust's f64 Display writes it ("5", "0.5").
def number_text(x)
  return nil if x.nil?
  return x.to_s if x.is_a?(Integer)
  f = x.to_f
  return f.to_i.to_s if f.finite? && f == f.round && f.abs < 1e15
  s = f.to_s
  return s unless s.include?('e')
  require 'bigdecimal'
  BigDecimal(s).to_s('F').sub(/\.0\z/, '')
end

def field(req, key, type, what)
  raise BadRequest, "missing '#{key}'" unless req.key?(key)
  v = req[key]
  raise BadRequest, "'#{key}' must be #{what}" unless v.is_a?(type)
  v
end

def robots_of(req)
  b64 = field(req, 'robots', String, 'a base64 string')
  begin
    Base64.strict_decode64(b64).force_encoding(Encoding::BINARY)
  rescue ArgumentError => e
    raise BadRequest, "robots is not valid base64: #{e.message}"
  end
end

def robots_for(robots, agent)
  WebRobots.new(agent, http_get: ->(_uri) { robots }, crawl_delay: :ignore)
end

def log_parse_error(webrobots, url)
  err = webrobots.error(url)
  STDERR.puts("webrobots: #{text(err.message)}") if err
rescue StandardError
  nil
end

def decide(req)
  robots = robots_of(req)
  agent = field(req, 'agent', String, 'a string')
  urls = field(req, 'urls', Array, 'a list')
  wr = robots_for(robots, agent)
  results = urls.map do |url|
    raise ArgumentError, 'url is not a string' unless url.is_a?(String)
    full = join_url(url)
    v = wr.allowed?(full)
    log_parse_error(wr, full)
    case v
    when true then { 'verdict' => 'allowed' }
    when false then { 'verdict' => 'disallowed' }
    else { 'error' => "parser returned #{text(v.inspect)[0, 80]}, not a boolean" }
    end
  rescue StandardError => e
    { 'error' => message(e) }
  end
  { 'results' => results }
end

HELLO = {
  'name' => 'ruby-webrobots',
  'version' => "webrobots #{Webrobots::VERSION}",
  'language' => 'ruby',
  'profile' => 'google',
  'body' => 'bytes',
  'protocol' => 1
}.freeze

def answer(req)
  op = field(req, 'op', String, 'a string')
  case op
  when 'hello' then HELLO.dup
  when 'decide' then decide(req)
  when 'sitemaps'
    { 'value' => robots_for(robots_of(req), '*').sitemaps("#{BASE}/").map { |s| text(s) } }
  when 'crawl-delay'
    robots = robots_of(req)
    agent = field(req, 'agent', String, 'a string')
    delay = robots_for(robots, agent).crawl_delay("#{BASE}/")
    if !delay.nil? && delay.zero?
      { 'unsupported' => 'webrobots answers 0 both for no crawl-delay and for Crawl-delay: 0' }
    else
      { 'value' => number_text(delay) }
    end
  else { 'unsupported' => "op #{op}" }
  end
end

STDIN.each_line do |line|
  next if line.strip.empty?
  id = nil
  begin
    line = line.force_encoding(Encoding::UTF_8)
    raise BadRequest, 'request is not UTF-8' unless line.valid_encoding?
    begin
      req = JSON.parse(line)
    rescue JSON::ParserError => e
      raise BadRequest, "request is not JSON: #{e.message[0, 120]}"
    end
    raise BadRequest, 'request is not a JSON object' unless req.is_a?(Hash)
    id = req['id']
    out = { 'id' => id }.merge(answer(req))
  rescue BadRequest => e
    out = { 'id' => id, 'error' => "bad request: #{text(e.message)}" }
  rescue StandardError, ScriptError => e
    STDERR.puts(message(e))
    out = { 'id' => id, 'error' => message(e) }
  end
  reply(out)
end
exit 0
