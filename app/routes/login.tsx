export default function Page() {
  return <div>login</div>
}
