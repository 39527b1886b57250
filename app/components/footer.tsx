export function Footer() {
  return <footer className="border-t p-4 text-center">© All Rights Reserved 2024.</footer>
}
